/* mjcalc serve: the page. Plain JavaScript, no build step, nothing fetched but this server's own API.

The notation field is the one truth: the palette reads the field, changes the hand and writes the field
back; the context toggles and options live beside it and are sent with it. The server scores; this page
only draws. Its data comes from GET /api/rules (every ruleset as `mjcalc rules show --json`, and the flag
table), its results from POST /api/score and /api/waits (the objects of docs/OUTPUT.md).

Tiles are SVG drawn by this file (tileSvg): dots and bamboo as shapes, characters, winds, dragons and flowers
as the device's CJK glyphs with a Latin corner index, so a tile reads even where no CJK font is installed.
*/
"use strict";

const SEATS = ["E", "S", "W", "N"];
const SEAT_ZH = {E: "东", S: "南", W: "西", N: "北"};
const SUITS = "mpsz";
const HONOR_LETTERS = {E: "1z", S: "2z", W: "3z", N: "4z", P: "5z", F: "6z", C: "7z",
  "东": "1z", "南": "2z", "西": "3z", "北": "4z", "白": "5z", "发": "6z", "中": "7z",
  "東": "1z", "發": "6z"};
// Full-width forms typed on a phone keyboard, read as the ASCII they stand for (as the server does).
const WIDE = /[\uFF01-\uFF5E]/g;
const NOT_TOGGLES = new Set(["rules", "win", "base", "cap"]);  // the ruleset picker, the palette, the options

const T = {
  en: {
    notation: "hand notation", undo: "undo", clear: "clear", context: "Context", options: "Options",
    share: "copy share link", copied: "link copied", tile: "tile", chi: "chi", pon: "pon", kong: "kong",
    ankan: "concealed kong", special: "special kong", win: "winning tile", done: "done",
    hint_tile: "Tap tiles to add them; the last one added is the winning tile. Tap a tile of the hand to remove it.",
    hint_chi: "Chi: tap the lowest tile of the sequence.", hint_pon: "Pon: tap the tile.",
    hint_kong: "Exposed kong: tap the tile.", hint_ankan: "Concealed kong: tap the tile.",
    hint_special: "Special kong: tap its tiles, then “done”.", hint_win: "Winning tile: tap it (in the palette or the hand).",
    hint_flag: "Tap the tile for", tiles: "tiles", of: "of", waiting_count: "one short: the waits are listed",
    reading: "reading", wins_on: "wins on", wait: "wait", waits: "waits", wildcards: "wildcards",
    item: "item", value: "value", applies: "applies to", total: "total", payer: "payer", payee: "payee",
    formula: "formula", amount: "amount", own_items: "payer's own items", liable_for: "liable (pao) for", kongs: "kong points",
    net: "net", seat: "seat", dealer: "dealer", points_to_winner: "points to the winner",
    not_a_win: "NOT A WIN", not_ready: "NOT READY — shanten", ready: "waiting", unseen: "unseen",
    self_drawn: "self-drawn", on_discard: "on a discard", no_score: "no win", notes: "notes",
    ignored: "ignored flags", warnings: "warnings", error: "ERROR", every_payer: "every payer",
    capped: "capped from", for_: "for", off: "off", on: "on", none: "none", auto: "auto",
    default_: "default", fu: "fu", limit: "limit", wild_draw: "drawing the wildcard",
    loading: "…", server: "the server did not answer", empty: "Type a hand or tap the tiles below.",
    flowers: "flowers", table: "table",
  },
  zh: {
    notation: "牌型", undo: "撤销", clear: "清空", context: "场况", options: "规则选项",
    share: "复制分享链接", copied: "链接已复制", tile: "加牌", chi: "吃", pon: "碰", kong: "明杠",
    ankan: "暗杠", special: "特殊杠", win: "和张", done: "完成",
    hint_tile: "点牌加入手牌，最后加入的一张是和张。点手牌中的牌可删除。",
    hint_chi: "吃：点顺子最小的一张。", hint_pon: "碰：点那张牌。", hint_kong: "明杠：点那张牌。",
    hint_ankan: "暗杠：点那张牌。", hint_special: "特殊杠：依次点牌，再点“完成”。",
    hint_win: "和张：点一张牌（牌盘或手牌中）。", hint_flag: "点牌设置", tiles: "张", of: "/",
    waiting_count: "差一张：列出听牌", reading: "拆法", wins_on: "和", wait: "听", waits: "听牌",
    wildcards: "混儿", item: "番种", value: "番", applies: "适用", total: "合计", payer: "付", payee: "收",
    formula: "算式", amount: "金额", own_items: "本家另计", liable_for: "包牌（责任支付）", kongs: "杠分", net: "输赢", seat: "座位",
    dealer: "庄", points_to_winner: "和家共得", not_a_win: "不能和", not_ready: "未听牌 — 向听",
    ready: "听牌", unseen: "剩余", self_drawn: "自摸", on_discard: "点炮", no_score: "不能和",
    notes: "说明", ignored: "未使用的标记", warnings: "提示", error: "错误", every_payer: "每家",
    capped: "封顶前", for_: "代", off: "关", on: "开", none: "无", auto: "自动", default_: "默认",
    fu: "符", limit: "满贯", wild_draw: "摸到混儿", loading: "…", server: "服务器没有回应",
    empty: "输入牌型，或点下面的牌。", flowers: "花牌", table: "场供",
  },
};

// Only a fallback for a server that does not send the flag table: the same table as mjcalc/core/context.py and the hooks (mjcalc/hooks/).
const FALLBACK_FLAGS = [
  ["zimo", "bool", "self-drawn", ["tsumo", "自摸"], "won on a discard"],
  ["seat", "seat", "winner's seat wind; East is the dealer", ["座", "门风"], "S"],
  ["from", "seat", "discarder's seat, on a discard win", ["点炮", "放炮"], "the seat opposite the winner"],
  ["round", "seat", "prevalent wind", ["圈", "圈风"], "E"],
  ["gang", "bool", "won on a kong replacement tile (a self-draw)", ["rinshan", "杠上开花"], "off"],
  ["qiang", "bool", "won by robbing a kong", ["chankan", "抢杠"], "off"],
  ["last", "bool", "won on the last tile", ["haidi", "海底"], "off"],
  ["tian", "bool", "heavenly hand (the dealer's dealt tiles, a self-draw)", ["tenhou", "天胡"], "off"],
  ["di", "bool", "earthly hand (first draw, a self-draw)", ["chiihou", "地胡"], "off"],
  ["ren", "bool", "human hand (a discard in the first go-round)", ["renhou", "人胡"], "off"],
  ["closed", "seats", "the other seats whose hands are closed", ["门清"], "none"],
  ["bao", "tile", "the treasure tile (宝牌)", ["宝", "宝牌"], "none"],
  ["mobao", "bool", "won by drawing the treasure tile as a wildcard", ["摸宝"], "off"],
  ["duibao", "bool", "the treasure tile is exactly the winning tile", ["对宝"], "off"],
  ["hui", "tile", "the wildcard tile kind (会牌)", ["会", "会牌"], "none"],
  ["flip", "tile", "the tile flipped to find the wildcard (the wildcard is the next kind)", ["翻"], "none"],
  ["gangpao", "bool", "the winning discard came right after the discarder's kong", ["杠点炮"], "off"],
  ["riichi", "bool", "riichi declared", ["reach", "立直"], "off"],
  ["wriichi", "bool", "double riichi declared", ["double_riichi", "两立直"], "off"],
  ["ippatsu", "bool", "won within one go-round of riichi", ["一发"], "off"],
  ["dora", "tiles", "dora indicators", ["宝牌指示牌"], "none"],
  ["ura", "tiles", "ura-dora indicators", ["uradora", "里宝牌"], "none"],
  ["honba", "int", "riichi repeat counters", ["本场"], "0", 99],
  ["sticks", "int", "riichi sticks on the table", ["供托"], "0", 99],
  ["fourth", "bool", "the winning tile was the last of its kind (和绝张)", ["和绝张"], "off"],
  ["lian", "int", "dealer's consecutive wins (连庄)", ["连庄"], "0", 99],
  ["baozhuang", "bool", "包庄: the discarder was not ready and pays all three shares", ["包庄"], "off"],
  ["pao", "seat", "the player liable for the hand (責任払い): fed the set that made its yakuman", ["包", "责任支付", "責任払い"], "none"],
].map(([name, kind, doc, aliases, default_doc, most]) => ({name, kind, doc, aliases, default_doc, most: most || 0}));

const $ = (id) => document.getElementById(id);
const state = {
  rulesets: {}, order: [], flagDefs: [], labels: {}, rules: "changchun", lang: "en",
  flags: {},      // name -> value (only what differs from the default): true, "E", ["W","N"], "5m", ["3m"], 2
  options: {},    // name -> value as written on the command line ("on", "none", "2")
  mode: "tile", pick: null, special: [], history: [], winPinned: false,
  seq: 0, timer: 0,
  view: "calc",   // "calc", or "game" (game.js): the calculator's field and palette then enter a game's hand
};
const t = (key) => (T[state.lang] && T[state.lang][key]) || T.en[key] || key;
const rs = () => state.rulesets[state.rules];

/* ---------------------------------------------------------------- tiles: the notation, read and written */

function tileKind(tile) { return tile[0] === "0" ? "5" + tile[1] : tile; }  // a red five is a five

function readTiles(text) {
  // "123m4p东E" -> ["1m","2m","3m","4p","1z","1z"]; null when it is not a tile list
  const out = [];
  let digits = "";
  for (const ch of text) {
    if (/[0-9]/.test(ch)) { digits += ch; continue; }
    if ("mpszf".includes(ch)) {
      if (!digits) return null;
      for (const d of digits) out.push(d + ch);
      digits = "";
      continue;
    }
    if (HONOR_LETTERS[ch] && !digits) { out.push(HONOR_LETTERS[ch]); continue; }
    return null;
  }
  return digits ? null : out;
}

function sortKey(tile) {
  const suit = "mpszf".indexOf(tile[1]);
  const n = tile[0] === "0" ? 5.5 : Number(tile[0]);
  return suit * 10 + n;
}

function compact(tiles) {
  // ["1m","2m","4p"] -> "12m4p": digits then the suit, the suit written once per run
  let out = "", run = "", suit = "";
  for (const tile of tiles) {
    if (tile[1] !== suit && run) { out += run + suit; run = ""; }
    suit = tile[1];
    run += tile[0];
  }
  return run ? out + run + suit : out;
}

function parseLine(raw) {
  // The page's own light reading of the field, enough to edit it from the palette and to draw it; the server
  // reads the line for real (and says what is wrong with it). null when this reading cannot follow it.
  const text = raw.replace(WIDE, (c) => String.fromCharCode(c.charCodeAt(0) - 0xFEE0))
    .replace(/\u3000/g, " ").replace(/［/g, "[").replace(/］/g, "]");
  const hand = {tiles: [], melds: [], flowers: [], flags: []};
  for (const word of text.trim().split(/\s+/).filter(Boolean)) {
    const plus = word.indexOf("+");
    const head = plus < 0 ? word : word.slice(0, plus);
    if (plus >= 0) hand.flags.push(...word.slice(plus).split("+").filter(Boolean).map((w) => "+" + w));
    if (!head) continue;
    const open = head[0], close = {"[": "]", "(": ")", "{": "}"}[open];
    if (close) {
      if (head[head.length - 1] !== close) return null;
      const tiles = readTiles(head.slice(1, -1));
      if (!tiles || tiles.length < 3) return null;
      hand.melds.push({open, tiles, text: open + compact(tiles) + close});
      continue;
    }
    const tiles = readTiles(head);
    if (!tiles) return null;
    for (const tile of tiles) (tile[1] === "f" ? hand.flowers : hand.tiles).push(tile);
  }
  return hand;
}

function writeLine(hand) {
  // The concealed tiles sorted, the melds, the flowers, then the winning tile apart (the last bare tile).
  const tiles = hand.tiles.slice();
  const win = tiles.pop();
  tiles.sort((a, b) => sortKey(a) - sortKey(b));
  const parts = [];
  if (tiles.length) parts.push(compact(tiles));
  for (const meld of hand.melds) parts.push(meld.text);
  if (hand.flowers.length) parts.push(compact(hand.flowers.slice().sort((a, b) => sortKey(a) - sortKey(b))));
  if (win) parts.push(win);
  parts.push(...hand.flags);
  return parts.join(" ");
}

function tilesInHand(hand) {
  const count = {};
  for (const tile of [...hand.tiles, ...hand.melds.flatMap((m) => m.tiles)]) {
    count[tileKind(tile)] = (count[tileKind(tile)] || 0) + 1;
  }
  return count;
}

/* ---------------------------------------------------------------- tiles: the artwork */

const NUMERALS = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
const HONOR_GLYPHS = ["", "東", "南", "西", "北", "", "發", "中"];
const HONOR_INDEX = ["", "E", "S", "W", "N", "", "F", "C"];
const FLOWER_GLYPHS = ["", "春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];
const BLUE = "#1f4e9c", GREEN = "#1e7a4a", RED = "#c62828", INK = "#1b1b1b";
const CJK = "'Noto Serif CJK SC','Source Han Serif SC','Songti SC','SimSun','Noto Sans CJK SC','PingFang SC',"
  + "'Hiragino Sans GB','Microsoft YaHei','WenQuanYi Micro Hei',serif";

const DOTS = {  // [x, y, r, colour] per dot; the 1 is drawn apart
  2: [[15, 11, 5.6, GREEN], [15, 29, 5.6, BLUE]],
  3: [[8, 9, 4.6, BLUE], [15, 20, 4.6, RED], [22, 31, 4.6, GREEN]],
  4: [[9, 11, 5, BLUE], [21, 11, 5, GREEN], [9, 29, 5, GREEN], [21, 29, 5, BLUE]],
  5: [[8, 9, 4.4, BLUE], [22, 9, 4.4, GREEN], [15, 20, 4.4, RED], [8, 31, 4.4, GREEN], [22, 31, 4.4, BLUE]],
  6: [[9, 8, 4, GREEN], [21, 8, 4, GREEN], [9, 21, 4, RED], [21, 21, 4, RED], [9, 32, 4, RED], [21, 32, 4, RED]],
  7: [[7, 6.5, 3.4, GREEN], [15, 10, 3.4, GREEN], [23, 13.5, 3.4, GREEN],
    [9, 24, 3.7, RED], [21, 24, 3.7, RED], [9, 33, 3.7, RED], [21, 33, 3.7, RED]],
  8: [7, 15.7, 24.4, 33.1].flatMap((y) => [[9, y, 3.6, BLUE], [21, y, 3.6, BLUE]]),
  9: [[9, BLUE], [20, RED], [31, GREEN]].flatMap(([y, c]) => [7, 15, 23].map((x) => [x, y, 3.6, c])),
};
const STICKS = {  // [x, y, height, colour] per stick (3.4 wide)
  2: [[15, 4, 14, BLUE], [15, 22, 14, GREEN]],
  3: [[15, 4, 14, BLUE], [9, 22, 14, GREEN], [21, 22, 14, GREEN]],
  4: [[9, 4, 14, BLUE], [21, 4, 14, GREEN], [9, 22, 14, GREEN], [21, 22, 14, BLUE]],
  5: [[7, 4, 14, GREEN], [23, 4, 14, BLUE], [15, 13, 14, RED], [7, 22, 14, BLUE], [23, 22, 14, GREEN]],
  6: [4, 22].flatMap((y) => [7, 15, 23].map((x) => [x, y, 14, GREEN])),
  7: [[15, 3, 10, RED], ...[15, 27].flatMap((y) => [7, 15, 23].map((x) => [x, y, 10, GREEN]))],
  8: [4, 22].flatMap((y) => [5.5, 12, 18, 24.5].map((x) => [x, y, 14, GREEN])),
  9: [3, 15, 27].flatMap((y) => [[7, y, 10, GREEN], [15, y, 10, RED], [23, y, 10, BLUE]]),
};

function glyph(x, y, size, colour, text, family) {
  return `<text x="${x}" y="${y}" font-size="${size}" fill="${colour}" text-anchor="middle" `
    + `font-family="${family || CJK}" font-weight="700">${text}</text>`;
}
function cornerIndex(text, colour) {
  return `<text x="2.6" y="7.6" font-size="6.4" fill="${colour || "#555"}" font-family="Arial,Helvetica,sans-serif" `
    + `font-weight="700">${text}</text>`;
}
function dot(x, y, r, colour) {
  return `<circle cx="${x}" cy="${y}" r="${r}" fill="${colour}"/><circle cx="${x}" cy="${y}" r="${r * 0.62}" `
    + `fill="none" stroke="#fff" stroke-width="${r * 0.22}"/><circle cx="${x}" cy="${y}" r="${r * 0.2}" fill="#fff"/>`;
}
function stick(x, y, h, colour) {
  const m = y + h / 2;
  return `<rect x="${x - 1.7}" y="${y}" width="3.4" height="${h}" rx="1.7" fill="${colour}"/>`
    + `<line x1="${x - 1.7}" y1="${m}" x2="${x + 1.7}" y2="${m}" stroke="#fff" stroke-width="0.7"/>`;
}

const svgCache = {};
function tileSvg(tile) {  // the tile's picture as a data: URL
  if (svgCache[tile]) return svgCache[tile];
  const red = tile[0] === "0";
  const n = red ? 5 : Number(tile[0]);
  const suit = tile[1];
  let art = "";
  if (suit === "m") {
    art = cornerIndex(n, red ? RED : null) + glyph(15, 18, 14, red ? RED : INK, NUMERALS[n]) + glyph(15, 35, 14, RED, "萬");
  } else if (suit === "p") {
    art = n === 1
      ? `<circle cx="15" cy="20" r="10" fill="${GREEN}"/><circle cx="15" cy="20" r="7.6" fill="#fff"/>`
        + `<circle cx="15" cy="20" r="6" fill="${RED}"/><circle cx="15" cy="20" r="2.4" fill="#fff"/>`
      : DOTS[n].map(([x, y, r, c]) => dot(x, y, r, red ? RED : c)).join("");
  } else if (suit === "s") {
    art = n === 1
      ? `<ellipse cx="15" cy="24" rx="6" ry="9" fill="${GREEN}"/><circle cx="15" cy="11" r="4.2" fill="${RED}"/>`
        + `<path d="M15 30 L9 37 M15 30 L21 37 M15 30 L15 37" stroke="${BLUE}" stroke-width="1.6"/>`
        + `<circle cx="16.4" cy="10.4" r="1" fill="#fff"/>`
      : STICKS[n].map(([x, y, h, c]) => stick(x, y, h, red ? RED : c)).join("");
  } else if (suit === "z") {
    if (n === 5) {
      art = `<rect x="6.5" y="7" width="17" height="26" rx="1.5" fill="none" stroke="${BLUE}" stroke-width="2.2"/>`
        + `<rect x="9.5" y="10" width="11" height="20" fill="none" stroke="${BLUE}" stroke-width="0.8"/>`;
    } else {
      const colour = n === 6 ? GREEN : n === 7 ? RED : "#1b2a5a";
      art = cornerIndex(HONOR_INDEX[n], colour) + glyph(15, 28, 20, colour, HONOR_GLYPHS[n]);
    }
  } else if (suit === "f") {
    const colour = n <= 4 ? GREEN : RED;
    art = cornerIndex(n <= 4 ? n : n - 4, colour) + glyph(15, 28, 19, colour, FLOWER_GLYPHS[n]);
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 40" width="30" height="40">`
    + `<rect x="0.6" y="0.6" width="28.8" height="38.8" rx="4" fill="#fffdf5" stroke="#bdb6a4" stroke-width="1.2"/>`
    + art + (red ? `<circle cx="25.5" cy="4.5" r="1.8" fill="${RED}"/>` : "") + `</svg>`;
  svgCache[tile] = "data:image/svg+xml," + encodeURIComponent(svg);
  return svgCache[tile];
}

function tileEl(tile, tag) {
  const el = document.createElement(tag || "span");
  el.className = "tile";
  el.dataset.tile = tile;
  el.title = tile;
  el.setAttribute("aria-label", tile);
  const img = document.createElement("img");
  img.src = tileSvg(tile);
  img.alt = tile;
  img.draggable = false;
  el.appendChild(img);
  return el;
}

function groupEl(text) {
  // One group as the server writes it ("123m", "[777z]", "(1111m)", "{1234z}", "5m#2"): its tiles drawn.
  const el = document.createElement("span");
  el.className = "group";
  const open = text[0];
  const body = "[({".includes(open) ? text.slice(1, -1) : text.replace(/#\d+$/, "").replace(/\*$/, "");
  if (open === "[") el.classList.add("exposed");
  if (open === "(") el.classList.add("concealed-kong");
  if (open === "{") el.classList.add("special");
  const tiles = readTiles(body);
  if (!tiles) { el.textContent = text; return el; }
  for (const tile of tiles) el.appendChild(tileEl(tile));
  el.dataset.group = text;
  return el;
}

function tilesEl(text) {
  const wrap = document.createElement("span");
  wrap.className = "tiles";
  for (const g of String(text).split(/\s+/).filter(Boolean)) wrap.appendChild(groupEl(g));
  return wrap;
}

/* ---------------------------------------------------------------- the rulesets, flags and options */

function normaliseRules(data) {
  let list = data && data.rulesets !== undefined ? data.rulesets : data;
  if (list && !Array.isArray(list)) list = Object.entries(list).map(([id, r]) => Object.assign({id}, r));
  const out = {};
  for (const r of list || []) out[r.id] = r;
  return out;
}

function flagDef(name) { return state.flagDefs.find((f) => f.name === name); }

function zhAlias(def) {
  return (def.aliases || []).find((a) => /[\u4e00-\u9fff]/.test(a)) || def.name;
}

function seatLabel(seat) {
  if (!SEATS.includes(seat)) return seat === "table" ? t("table") : seat;
  return state.lang === "zh" ? SEAT_ZH[seat] : seat;
}

function flagWords() {
  // The toggles as the notation's flag words (only what differs from the default), in the flag table's order.
  const words = [];
  const reads = new Set(rs() ? rs().flags : []);
  for (const def of state.flagDefs) {
    const v = state.flags[def.name];
    if (v === undefined || v === false || v === null || !reads.has(def.name)) continue;
    if (def.name === "from" && state.flags.zimo) continue;
    if (v === true) words.push("+" + def.name);
    else if (Array.isArray(v)) { if (v.length) words.push(`+${def.name}=${def.kind === "seats" ? v.join(",") : v.join("")}`); }
    else words.push(`+${def.name}=${v}`);
  }
  return words;
}

function readFlagWords(text) {
  // The share link's flag words back into toggles.
  const flags = {};
  for (const word of text.split("+").map((w) => w.trim()).filter(Boolean)) {
    const [name, value] = word.split("=");
    const def = flagDef(name);
    if (!def) continue;
    if (def.kind === "bool") flags[name] = true;
    else if (def.kind === "seats") flags[name] = (value || "").split(",").filter((s) => SEATS.includes(s));
    else if (def.kind === "tiles") flags[name] = readTiles(value || "") || [];
    else if (def.kind === "int") flags[name] = Number(value) || 0;
    else flags[name] = value;
  }
  return flags;
}

function liftFlags() {
  // Flags typed into the field move to the toggles once the typing is done (on leaving the field, or Enter):
  // one place for each. A word this page cannot place stays in the line, for the server to explain.
  const field = $("notation");
  const words = field.value.split(/(?=\+)|\s+/).filter(Boolean);
  const reads = new Set(rs() ? rs().flags : []);
  const kept = [];
  let moved = false;
  for (const word of words) {
    const m = /^\+([^=+\s]+)(?:=(\S*))?$/.exec(word.trim());
    const def = m && state.flagDefs.find((d) => [d.name, ...(d.aliases || [])].some(
      (a) => a.toLowerCase() === m[1].toLowerCase()));
    const value = def && m[2] !== undefined ? m[2].toUpperCase() : undefined;
    let ok = def && reads.has(def.name) && !NOT_TOGGLES.has(def.name) && state.flags[def.name] === undefined;
    if (ok) {
      if (def.kind === "bool") ok = value === undefined;
      else if (def.kind === "seat") ok = SEATS.includes(value);
      else if (def.kind === "seats") ok = !!value && value.split(",").every((x) => SEATS.includes(x));
      else if (def.kind === "int") ok = /^[0-9]{1,2}$/.test(value || "") && Number(value) <= (def.most || 99);
      else ok = !!value && !!readTiles(m[2]) && (def.kind === "tiles" || readTiles(m[2]).length === 1);
    }
    if (!ok) { kept.push(word); continue; }
    state.flags[def.name] = def.kind === "bool" ? true : def.kind === "seat" ? value
      : def.kind === "seats" ? value.split(",") : def.kind === "int" ? Number(value)
        : def.kind === "tiles" ? readTiles(m[2]) : readTiles(m[2])[0];
    if (def.kind === "int" && !state.flags[def.name]) delete state.flags[def.name];
    moved = true;
  }
  if (!moved) return;
  field.value = kept.join(" ").replace(/\s+/g, " ").trim();
  drawHand();
  drawFlags();
  changed();
}

function line() {
  const field = $("notation").value.trim();
  return [field, ...flagWords()].filter(Boolean).join(" ");
}

/* ---------------------------------------------------------------- drawing the controls */

function button(label, cls, onClick, extra) {
  const b = document.createElement("button");
  b.type = "button";
  if (cls) b.className = cls;
  if (typeof label === "string") b.textContent = label; else b.appendChild(label);
  b.addEventListener("click", onClick);
  if (extra) for (const [k, v] of Object.entries(extra)) b.dataset[k] = v;
  return b;
}

function drawRulesetPicker() {
  const sel = $("ruleset");
  sel.innerHTML = "";
  for (const id of state.order) {
    const r = state.rulesets[id];
    const opt = document.createElement("option");
    opt.value = id;
    opt.textContent = r.names[state.lang] || r.names.en;  // the name alone: the id is the share link's
    opt.title = id;
    sel.appendChild(opt);
  }
  sel.value = state.rules;
  $("ruleset-name").textContent = sel.selectedOptions.length ? sel.selectedOptions[0].textContent : "";
}

function drawModes() {
  const box = $("modes");
  box.innerHTML = "";
  const modes = ["tile", "chi", "pon", "kong", "ankan"];
  if (rs() && (rs().special_kongs || []).length) modes.push("special");
  modes.push("win");
  for (const m of modes) {
    const label = m === "special" && state.mode === "special" ? `${t("special")} · ${t("done")}` : t(m);
    const b = button(label, "mode" + (state.mode === m && !state.pick ? " on" : ""), () => setMode(m), {mode: m});
    box.appendChild(b);
  }
  let hint = t("hint_" + state.mode);
  if (state.pick) hint = `${t("hint_flag")} +${state.pick}`;
  if (state.mode === "special" && state.special.length) hint += "  " + state.special.join(" ");
  $("mode-hint").textContent = hint;
}

function drawPalette() {
  const box = $("palette");
  box.innerHTML = "";
  const r = rs() || {hand: {}};
  const hand = parseLine($("notation").value) || {tiles: [], melds: [], flowers: []};
  const count = tilesInHand(hand);
  const rows = ["m", "p", "s"].map((s) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => n + s));
  rows.push([1, 2, 3, 4, 5, 6, 7].map((n) => n + "z"));
  if (r.hand.red_fives) rows.push(["0m", "0p", "0s"]);
  if (r.hand.flowers) rows.push([1, 2, 3, 4, 5, 6, 7, 8].map((n) => n + "f"));
  for (const row of rows) {
    const rowEl = document.createElement("div");
    rowEl.className = "palette-row";
    for (const tile of row) {
      const b = tileEl(tile, "button");
      b.type = "button";
      b.classList.add("key");
      const honors = tile[1] === "z" || tile[1] === "f";
      const flowerRow = tile[1] === "f";
      let off = false;
      if (!state.pick) {
        if (state.mode === "chi" && honors) off = true;
        if (flowerRow && state.mode !== "tile") off = true;
        if (!flowerRow && state.mode === "tile" && (count[tileKind(tile)] || 0) >= 4) off = true;
        if (flowerRow && hand.flowers.includes(tile)) off = true;
      } else if (flowerRow) off = true;
      b.disabled = off;
      b.addEventListener("click", () => tap(tile));
      rowEl.appendChild(b);
    }
    box.appendChild(rowEl);
  }
}

function drawHand() {
  const strip = $("hand-strip");
  strip.innerHTML = "";
  const hand = parseLine($("notation").value);
  const r = rs();
  if (!hand) { $("hand-count").textContent = ""; return; }
  const tiles = hand.tiles.slice();
  const win = tiles.length ? tiles[tiles.length - 1] : null;
  const sorted = tiles.slice(0, -1).sort((a, b) => sortKey(a) - sortKey(b));
  const concealed = document.createElement("span");
  concealed.className = "group";
  sorted.forEach((tile) => concealed.appendChild(handTile(tile, hand)));
  if (sorted.length) strip.appendChild(concealed);
  hand.melds.forEach((meld, i) => {
    const g = groupEl(meld.text);
    g.classList.add("removable");
    g.addEventListener("click", () => edit((h) => { h.melds.splice(i, 1); }));
    strip.appendChild(g);
  });
  if (hand.flowers.length) {
    const g = document.createElement("span");
    g.className = "group flowers";
    hand.flowers.forEach((tile) => g.appendChild(handTile(tile, hand, "flowers")));
    strip.appendChild(g);
  }
  if (win) {
    const g = document.createElement("span");
    g.className = "group winning";
    g.appendChild(handTile(win, hand, "win"));
    strip.appendChild(g);
  }
  const size = r ? 3 * r.hand.sets + 2 : 14;
  const n = hand.tiles.length + 3 * hand.melds.length;
  $("hand-count").textContent = n ? `${n} ${t("of")} ${size} ${t("tiles")}` + (n === size - 1 ? ` · ${t("waiting_count")}` : "") : "";
}

function handTile(tile, hand, where) {
  const el = tileEl(tile, "button");
  el.type = "button";
  el.classList.add("in-hand");
  el.addEventListener("click", () => {
    if (where === "flowers") return edit((h) => { h.flowers.splice(h.flowers.indexOf(tile), 1); });
    if (state.mode === "win" && !state.pick) return setWin(tile);
    edit((h) => {
      const i = where === "win" ? h.tiles.length - 1 : h.tiles.indexOf(tile);
      if (i >= 0) h.tiles.splice(i, 1);
    });
  });
  return el;
}

function drawFlags() {
  const box = $("flags");
  box.innerHTML = "";
  const r = rs();
  if (!r) return;
  const reads = new Set(r.flags);
  const filled = state.view === "game" ? GAME_FILLED : new Set();  // a game fills these in itself
  const shown = state.flagDefs.filter((def) => reads.has(def.name) && !NOT_TOGGLES.has(def.name) && !filled.has(def.name));
  // the seats first, the on / off toggles as a grid of chips, then the tiles and counters
  const rank = (def) => (def.kind === "seat" || def.kind === "seats" ? 0 : def.kind === "bool" ? 1 : 2);
  let grid = null;
  for (const def of shown.slice().sort((a, b) => rank(a) - rank(b))) {
    if (def.kind === "bool") {
      if (!grid) grid = box.appendChild(el("div", "toggles"));
      grid.appendChild(flagControl(def));
    } else box.appendChild(flagControl(def));
  }
}

function flagLabel(def) {
  const el = document.createElement("span");
  el.className = "flag-label";
  const main = document.createElement("b");
  const sub = document.createElement("small");
  if (state.lang === "zh") { main.textContent = zhAlias(def); sub.textContent = "+" + def.name; }
  else { main.textContent = "+" + def.name; sub.textContent = def.doc; }
  el.append(main, " ", sub);
  return el;
}

function setFlag(name, value) {
  if (value === undefined || value === false || value === null || (Array.isArray(value) && !value.length)) {
    delete state.flags[name];
  } else state.flags[name] = value;
  if (name === "seat") {  // the winner is neither the discarder nor one of the other closed seats
    const winner = state.flags.seat || "S";
    if (state.flags.from === winner) delete state.flags.from;
    if (state.flags.pao === winner) delete state.flags.pao;
    if (state.flags.closed) state.flags.closed = state.flags.closed.filter((x) => x !== winner);
    if (state.flags.closed && !state.flags.closed.length) delete state.flags.closed;
  }
  drawFlags();
  changed();
}

function flagControl(def) {
  const row = document.createElement("div");
  row.className = "flag flag-" + def.kind;
  row.dataset.flag = def.name;
  const v = state.flags[def.name];
  if (def.kind === "bool") {
    const b = button(flagLabel(def), "toggle" + (v ? " on" : ""), () => setFlag(def.name, !v), {flag: def.name});
    b.setAttribute("aria-pressed", v ? "true" : "false");
    b.title = def.doc;
    return b;
  }
  row.appendChild(flagLabel(def));
  const controls = document.createElement("div");
  controls.className = "seg";
  row.appendChild(controls);
  if (def.kind === "seat") {
    const dflt = def.name === "round" ? "E" : def.name === "seat" ? "S" : null;
    const winner = state.flags.seat || "S";
    const current = v || dflt;
    if (def.name === "from") {
      controls.appendChild(button(t("auto"), "seg-b" + (!v ? " on" : ""), () => setFlag("from", null), {value: "auto"}));
    } else if (!dflt) {  // a seat flag with no default seat (+pao): none until one is chosen
      controls.appendChild(button(t("none"), "seg-b" + (!v ? " on" : ""), () => setFlag(def.name, null), {value: "none"}));
    }
    for (const s of SEATS) {
      const b = button(seatLabel(s), "seg-b" + (current === s ? " on" : ""),
        () => setFlag(def.name, s === dflt ? null : s), {value: s});
      if (def.name === "from" && (s === winner || state.flags.zimo)) b.disabled = true;
      if (!dflt && def.name !== "from" && s === winner) b.disabled = true;  // never the winner (+pao)
      controls.appendChild(b);
    }
    if (def.name === "from" && state.flags.zimo) row.classList.add("dim");
  } else if (def.kind === "seats") {
    const chosen = v || [];
    const winner = state.flags.seat || "S";
    for (const s of SEATS) {
      const on = chosen.includes(s);
      const b = button(seatLabel(s), "seg-b" + (on ? " on" : ""),
        () => setFlag(def.name, on ? chosen.filter((x) => x !== s) : [...chosen, s]), {value: s});
      if (s === winner) b.disabled = true;
      controls.appendChild(b);
    }
  } else if (def.kind === "tile" || def.kind === "tiles") {
    const tiles = v ? (Array.isArray(v) ? v : [v]) : [];
    const picking = state.pick === def.name;
    const b = button(tiles.length ? tilesEl(compact(tiles)) : (picking ? "…" : t("none")),
      "seg-b pick" + (picking ? " on" : ""), () => { state.pick = picking ? null : def.name; drawModes(); drawPalette(); drawFlags(); },
      {value: "pick"});
    controls.appendChild(b);
    if (tiles.length) controls.appendChild(button("×", "seg-b", () => setFlag(def.name, null), {value: "clear"}));
  } else if (def.kind === "int") {
    const n = Number(v || 0);
    const most = def.most || 99;
    controls.appendChild(button("−", "seg-b", () => setFlag(def.name, n > 1 ? n - 1 : null), {value: "minus"}));
    const out = document.createElement("output");
    out.textContent = String(n);
    controls.appendChild(out);
    controls.appendChild(button("+", "seg-b", () => setFlag(def.name, Math.min(most, n + 1)), {value: "plus"}));
  }
  return row;
}

function optionValue(o, v) {
  if (v === null || v === undefined) return "none";
  if (v === true) return "on";
  if (v === false) return "off";
  return String(v);
}

function drawOptions() {
  const box = $("options");
  box.innerHTML = "";
  const r = rs();
  if (!r) return;
  for (const [name, o] of Object.entries(r.options || {})) {
    if (o.game) continue;  // an option of the whole game (docs/GAME.md): nothing to a hand
    box.appendChild(optionRow(name, o, state.options, (typing) => changed(typing ? 250 : undefined)));
  }
}

function optionRow(name, o, values, onChange) {
  // One option of a ruleset, its value kept in `values` (only what differs from the default); onChange(typing)
  // after each change, typing when it came from a key in the text field. The game's form draws its options so too.
  const row = el("label", "option");
  const head = el("span", "flag-label");
  const doc = (o.docs && (o.docs[state.lang] || o.docs.en)) || o.doc || "";
  const dflt = optionValue(o, o.default);
  head.append(el("b", null, name), " ", el("small", null, `${t("default_")} ${dflt} · ${doc}`));
  row.appendChild(head);
  const current = values[name] !== undefined ? values[name] : dflt;
  const choices = o.type === "bool" ? ["on", "off"] : o.choices;
  const set = (v, typing) => {
    if (v === dflt || v === "") delete values[name]; else values[name] = v;
    onChange(typing);
  };
  let input;
  if (choices) {
    input = document.createElement("select");
    for (const c of choices) {
      const opt = document.createElement("option");
      opt.value = c;
      opt.textContent = c === "on" || c === "off" ? t(c) : c;
      input.appendChild(opt);
    }
    input.value = current;
    input.addEventListener("change", () => set(input.value, false));
  } else {
    input = document.createElement("input");
    input.type = "text";
    input.inputMode = o.type === "int_or_none" ? "text" : "numeric";
    input.value = current;
    input.addEventListener("input", () => set(input.value.trim(), true));
  }
  input.dataset.option = name;
  row.appendChild(input);
  return row;
}

function drawStatic() {
  document.documentElement.lang = state.lang === "zh" ? "zh" : "en";
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const b of document.querySelectorAll(".lang button")) b.classList.toggle("on", b.dataset.lang === state.lang);
}

function drawAll() {
  drawStatic();
  drawRulesetPicker();
  drawModes();
  drawPalette();
  drawHand();
  drawFlags();
  drawOptions();
}

/* ---------------------------------------------------------------- editing from the palette */

function setField(text, remember) {
  const field = $("notation");
  if (remember !== false && text !== field.value) state.history.push(field.value);
  field.value = text;
  drawHand();
  drawPalette();
  changed();
}

function edit(fn) {
  const hand = parseLine($("notation").value);
  if (!hand) return false;
  fn(hand);
  setField(writeLine(hand));
  return true;
}

function setMode(m) {
  if (state.pick) state.pick = null;
  if (m === "special" && state.mode === "special") {  // "done": the special kong is written
    const tiles = state.special;
    state.special = [];
    state.mode = "tile";
    if (tiles.length >= 3) edit((h) => h.melds.push({open: "{", tiles, text: "{" + compact(tiles) + "}"}));
  } else {
    state.mode = state.mode === m && m !== "tile" ? "tile" : m;
    state.special = [];
  }
  drawModes();
  drawPalette();
  drawFlags();
}

function setWin(tile) {
  edit((h) => {
    const i = h.tiles.lastIndexOf(tile);
    if (i >= 0) h.tiles.splice(i, 1);
    h.tiles.push(tile);
  });
  state.winPinned = true;
  state.mode = "tile";
  drawModes();
  drawPalette();
}

function meldOf(mode, tile) {
  const d = tile[0], s = tile[1];
  if (mode === "chi") {
    const low = Math.min(Number(tileKind(tile)[0]), 7);
    const tiles = [low, low + 1, low + 2].map((n) => (n === 5 && d === "0" ? "0" : String(n)) + s);
    return {open: "[", tiles};
  }
  const n = mode === "pon" ? 3 : 4;
  const tiles = Array.from({length: n}, (_, i) => (i === 0 ? tile : tileKind(tile)));
  return {open: mode === "ankan" ? "(" : "[", tiles};
}

function tap(tile) {
  if (state.pick) {
    const def = flagDef(state.pick);
    if (def.kind === "tiles") {
      setFlag(def.name, [...(state.flags[def.name] || []), tile]);
    } else {
      state.pick = null;
      setFlag(def.name, tile);
      drawModes();
      drawPalette();
    }
    return;
  }
  const mode = state.mode;
  if (mode === "special") {
    state.special.push(tile);
    drawModes();
    return;
  }
  if (mode === "win") return setWin(tile);
  const ok = edit((h) => {
    if (tile[1] === "f") { h.flowers.push(tile); return; }
    if (mode === "tile") {
      // The last tile added is the winning tile, unless one was chosen: then it stays last.
      if (state.winPinned && h.tiles.length) h.tiles.splice(h.tiles.length - 1, 0, tile);
      else h.tiles.push(tile);
      return;
    }
    const meld = meldOf(mode, tile);
    meld.text = meld.open + compact(meld.tiles) + {"[": "]", "(": ")"}[meld.open];
    h.melds.push(meld);
  });
  if (!ok) setField(($("notation").value + " " + tile).trim());  // a field this page cannot follow: append
  if (mode !== "tile") { state.mode = "tile"; drawModes(); drawPalette(); }
}

/* ---------------------------------------------------------------- scoring */

function changed(wait) {
  // Typing waits for a pause (debounced); a tap or a toggle is scored at once.
  state.seq++;  // whatever is in flight now answers an older line: it is not drawn
  document.body.dataset.busy = "1";
  if (state.view === "game") { gamePreviewSoon(wait); return; }  // the hand of a game: what recording it would do
  writeHash();
  clearTimeout(state.timer);
  state.timer = setTimeout(score, wait || 0);
}

function body(lineText) {
  return {hand: lineText, rules: state.rules, set: Object.assign({}, state.options), lang: state.lang};
}

const pause = (ms) => new Promise((done) => setTimeout(done, ms));

async function post(path, payload) {
  // A phone's Wi-Fi drops a request now and then, and a busy server says 503: try again, a few times.
  let resp = null;
  for (let attempt = 1; ; attempt++) {
    try {
      resp = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify(payload)});
      if (resp.status !== 503 || attempt >= 4) break;
    } catch (e) {
      if (attempt >= 4) throw e;
    }
    await pause(250 * attempt);
  }
  let data = null;
  try { data = await resp.json(); } catch (e) { data = null; }
  if (!resp.ok && !(data && data.result)) {
    const msg = data && ((data.error && (data.error.message || data.error)) || data.detail || data.message);
    throw new Error(typeof msg === "string" ? msg : `${resp.status} ${resp.statusText}`);
  }
  return data;
}

async function score() {
  // One request at a time, for the latest line: a change made meanwhile is scored when the answer is in.
  if (state.inflight) { state.again = true; return; }
  state.inflight = true;
  try {
    await scoreOnce();
  } finally {
    state.inflight = false;
  }
  if (state.again) { state.again = false; score(); }
}

async function scoreOnce() {
  const seq = state.seq;
  const text = line();
  if (!$("notation").value.trim()) {
    showError(null);
    $("status").textContent = "";
    $("result").innerHTML = "";
    $("result").dataset.result = "empty";
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = t("empty");
    $("result").appendChild(p);
    document.body.dataset.busy = "0";
    return;
  }
  try {
    const result = await post("api/score", body(text));
    let waits = null;
    if (result.result === "waiting" && result.shanten === 0) waits = await post("api/waits", body(text));
    if (seq !== state.seq) return;
    render(result, waits, text);
  } catch (e) {
    if (seq !== state.seq) return;
    showError({message: `${t("server")}: ${e.message}`}, text);
    $("result").innerHTML = "";
    $("result").dataset.result = "unreachable";
  }
  if (seq === state.seq) document.body.dataset.busy = "0";
}

function showError(error, text) {
  const box = $("error");
  if (!error) { box.hidden = true; return; }
  box.hidden = false;
  $("error-message").textContent = `${t("error")}${error.kind ? ` (${error.kind})` : ""}`
    + `${error.column ? ` · col ${error.column}` : ""}: ${error.message}`;
  const echo = $("error-echo");
  echo.textContent = "";
  if (error.column && text) {
    // The line as sent with a caret under the column (1-based, counted in characters as typed)
    const chars = Array.from(text);
    const col = Math.min(error.column, chars.length + 1);
    const before = chars.slice(0, col - 1).join(""), at = chars[col - 1] || " ", after = chars.slice(col).join("");
    const mark = document.createElement("mark");
    mark.textContent = at;
    // the caret line: the text before the column again, unseen, so the caret lands under the column even
    // after characters wider than a space (东, full-width ｍ)
    const pad = el("span", "pad", before);
    pad.setAttribute("aria-hidden", "true");
    echo.append(before, mark, after, "\n", pad, el("span", "caret", "^"));
    echo.hidden = false;
    // a line wider than the phone: scroll its block to the column, not the page
    echo.scrollLeft = Math.max(0, mark.offsetLeft - echo.clientWidth / 2);
  } else echo.hidden = true;
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function table(headers, rows, cls, data) {
  const tb = el("table", cls);
  const head = el("tr");
  for (const h of headers) head.appendChild(el("th", null, h));
  tb.appendChild(el("thead")).appendChild(head);
  const bodyEl = tb.appendChild(el("tbody"));
  rows.forEach((row, k) => {
    const tr = el("tr");
    if (data && data[k]) for (const [key, v] of Object.entries(data[k])) tr.dataset[key] = v;
    for (const cell of row) {
      const td = el("td");
      if (cell instanceof Node) td.appendChild(cell); else td.textContent = cell === undefined ? "" : String(cell);
      tr.appendChild(td);
    }
    bodyEl.appendChild(tr);
  });
  return tb;
}

function itemName(id) {
  const item = ((rs() && rs().items) || []).find((i) => i.id === id);
  return item ? nameEl(item.names) : el("span", null, id);
}

function nameEl(names) {
  const other = state.lang === "zh" ? "en" : "zh";
  const span = el("span", "name", names[state.lang] || names.en);
  if (names[other] && names[other] !== names[state.lang]) span.appendChild(el("small", null, " " + names[other]));
  return span;
}

function label(kind, id) {
  // The server's words for an id (GET /api/rules "labels"), else the id itself.
  const words = state.labels[kind] && state.labels[kind][id];
  if (words) return words[state.lang] || words.en;
  return kind === "applies_to" && id === "all" ? t("every_payer") : id;
}

function conditionName(id) {
  const c = ((rs() && rs().win_conditions) || []).find((w) => w.id === id);
  return c && c.names ? (c.names[state.lang] || c.names.en) : id;
}

function unitWord(unit) { return state.lang === "zh" ? ({fan: "番", tai: "台", han: "翻", fu: "符"}[unit] || unit) : unit; }

function signed(n) { return n > 0 ? "+" + n : String(n); }

function render(r, waits, text) {
  const out = $("result");
  out.innerHTML = "";
  out.dataset.result = r.result;
  out.dataset.line = text;
  out.dataset.points = r.points === undefined || r.points === null ? "" : String(r.points);
  showError(r.result === "error" ? r.error : null, text);
  const unit = r.items && r.items.length ? r.items[0].unit : (rs() ? rs().unit : "fan");
  const status = $("status");
  if (r.result === "error") { status.textContent = ""; out.dataset.result = "error"; return; }
  if (r.result === "win") status.textContent = `${r.fan} ${unitWord(unit)}${r.fu ? ` ${r.fu} ${t("fu")}` : ""} · ${r.points}`;
  else if (r.result === "not_a_win") status.textContent = t("not_a_win");
  else if (r.result === "waiting") status.textContent = r.shanten ? `${t("not_ready")} ${r.shanten}` : t("ready");

  if (r.hand) {
    const p = el("div", "line");
    p.append(el("span", "label", state.lang === "zh" ? "手牌" : "hand"), tilesEl(r.hand));
    out.appendChild(p);
  }
  if (r.result === "not_a_win") {
    const box = el("div", "notwin");
    box.appendChild(el("h3", null, t("not_a_win")));
    for (const f of r.failed_conditions || []) box.appendChild(el("p", null, `✗ ${conditionName(f.id)}: ${f.message}`));
    out.appendChild(box);
  }
  if (r.result === "waiting") {
    out.appendChild(el("h3", null, r.shanten ? `${t("not_ready")} ${r.shanten}` : `${t("ready")}`));
    if (waits) out.appendChild(waitsEl(waits, unit));
  }
  if (r.result === "win") {
    const p = el("div", "line");
    p.append(el("span", "label", t("reading")));
    for (const g of r.reading || []) p.appendChild(groupEl(g));
    out.appendChild(p);
    const w = el("div", "line");
    w.append(el("span", "label", t("wins_on")), tilesEl(r.winning_tile || ""), el("span", null, r.wait ? label("wait", r.wait) : ""));
    if ((r.waits || []).length > 1) {
      w.append(el("span", "muted", ` · ${t("waits")} `), tilesEl(r.waits.join(" ")));
    }
    out.appendChild(w);
    const subs = Object.entries(r.substitutions || {});
    if (subs.length) {
      const s = el("div", "line");
      s.append(el("span", "label", t("wildcards")));
      for (const [from, to] of subs) {
        const pair = el("span", "sub");
        pair.append(groupEl(from), " → ", groupEl(to));
        s.appendChild(pair);
      }
      out.appendChild(s);
    }
    out.appendChild(table([t("item"), unitWord(unit), t("applies")],
      (r.items || []).map((i) => [nameEl(i.name), (i.count > 1 ? `${i.count}×` : "") + signed(i.value), label("applies_to", i.applies_to)]),
      "items", (r.items || []).map((i) => ({item: i.id, value: i.value}))));
    out.appendChild(el("p", "total", `${unitWord(unit)} ${r.fan}` + (r.fu ? ` · ${t("fu")} ${r.fu}` : "")
      + (r.limit ? ` · ${r.limit}` : "")));
    if ((r.fu_breakdown || []).length) {
      out.appendChild(el("p", "muted fu-sum", `${t("fu")} ${r.fu} = ` + r.fu_breakdown.map((f) => `${f.reason} ${f.fu}`).join(" + ")));
    }
    out.appendChild(table([`${t("payer")} → ${t("payee")}`, unitWord(unit), t("formula"), t("amount")],
      (r.payments || []).map((p) => {
        const who = el("span", null, `${seatLabel(p.payer)} → ${seatLabel(p.payee)}`);
        if (p.on_behalf_of) who.appendChild(el("small", null, ` ${t("for_")} ${seatLabel(p.on_behalf_of)}`));
        const f = el("span", "formula", p.formula || "");
        if ((p.payer_items || []).length) {
          const own = el("small", "own");
          own.append(`${t("own_items")}: `);
          p.payer_items.forEach((id, k) => { if (k) own.append(", "); own.appendChild(itemName(id)); });
          f.append(el("br"), own);
        }
        if ((p.liable_for || []).length) {
          const liable = el("small", "liable");
          liable.append(`${t("liable_for")}: `);
          p.liable_for.forEach((id, k) => { if (k) liable.append(", "); liable.appendChild(itemName(id)); });
          f.append(el("br"), liable);
        }
        if (p.capped_from !== null && p.capped_from !== undefined) f.append(el("br"), el("small", null, `${t("capped")} ${p.capped_from}`));
        return [who, p.fan, f, p.amount];
      }), "payments", (r.payments || []).map((p) => ({payer: p.payer, payee: p.payee, amount: p.amount,
        liable: (p.liable_for || []).join(",")}))));
    out.appendChild(el("p", "total", `${t("points_to_winner")}: ${r.points}`));
    if ((r.kong_payments || []).length) {
      out.appendChild(table([t("kongs"), `${t("payer")} → ${t("payee")}`, t("amount")],
        r.kong_payments.map((k) => {
          const n = el("span");
          n.append(nameEl(k.name || {en: k.kong}), " ", tilesEl(k.tiles || ""));
          return [n, `${seatLabel(k.payer)} → ${seatLabel(k.payee)}`, k.amount];
        }), "kongs", r.kong_payments.map((k) => ({payer: k.payer, payee: k.payee, amount: k.amount}))));
    }
    const dealer = "E";
    out.appendChild(table([t("seat"), t("net")],
      SEATS.filter((s) => r.net && s in r.net).map((s) => [seatLabel(s) + (s === dealer ? ` (${t("dealer")})` : ""), signed(r.net[s])]),
      "net", SEATS.filter((s) => r.net && s in r.net).map((s) => ({seat: s, net: r.net[s]}))));
  }
  const extra = [];
  if ((r.notes || []).length) extra.push(`${t("notes")}: ${r.notes.join("; ")}`);
  if ((r.ignored_flags || []).length) extra.push(`${t("ignored")}: ${r.ignored_flags.join(" ")}`);
  if ((r.warnings || []).length) extra.push(`${t("warnings")}: ${r.warnings.map((w) => w.message || w).join("; ")}`);
  for (const x of extra) out.appendChild(el("p", "muted", x));
}

function outcome(o, unit) {
  if (!o) return "";
  if (o.result === "win") {
    const s = el("span", "outcome win");
    s.append(el("b", null, String(o.points)), ` (${o.fan} ${unitWord(unit)}${o.fu ? ` ${o.fu} ${t("fu")}` : ""})`);
    if ((o.items || []).length) {
      const items = el("small", "items-list");
      o.items.forEach((id, k) => { if (k) items.append(", "); items.appendChild(itemName(id)); });
      s.append(el("br"), items);
    }
    return s;
  }
  const why = (o.failed_conditions || []).map((f) => conditionName(f.id || f)).join(", ")
    || (o.error && o.error.message) || o.result;
  return el("span", "outcome no", `${t("no_score")}: ${why}`);
}

function waitsEl(w, unit) {
  const rows = (w.waits || []).map((x) => [tileEl(x.tile), x.unseen, outcome(x.self_drawn, unit), outcome(x.discard, unit)]);
  const data = (w.waits || []).map((x) => ({tile: x.tile, selfDrawn: (x.self_drawn && x.self_drawn.points) ?? "",
    discard: (x.discard && x.discard.points) ?? ""}));
  if (w.wild_draw) {
    const d = w.wild_draw;
    const what = el("span");
    what.append(tileEl(d.tile), el("small", null, ` ${t("wild_draw")}`));
    rows.push([what, d.unseen, outcome(d.self_drawn, unit), ""]);
    data.push({tile: d.tile, wild: d.wildcard, selfDrawn: (d.self_drawn && d.self_drawn.points) ?? ""});
  }
  return table([t("waits"), t("unseen"), t("self_drawn"), t("on_discard")], rows, "waits", data);
}

/* ---------------------------------------------------------------- the share link */

function writeHash() {
  if (state.view === "game" || inGameHash()) return;  // the address is the game's (game.js)
  const p = new URLSearchParams();
  p.set("r", state.rules);
  p.set("h", $("notation").value.trim());
  const f = flagWords().join("");
  if (f) p.set("f", f);
  const o = Object.entries(state.options).map(([k, v]) => `${k}=${v}`).join(",");
  if (o) p.set("o", o);
  p.set("l", state.lang);
  const hash = "#" + p.toString();
  if (location.hash !== hash) history.replaceState(null, "", hash);
  $("share-link").value = location.href;
}

function readHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  if (!p.has("h") && !p.has("r")) return false;
  if (p.get("r") && state.rulesets[p.get("r")]) state.rules = p.get("r");
  if (p.get("l") === "zh" || p.get("l") === "en") state.lang = p.get("l");
  $("notation").value = p.get("h") || "";
  state.flags = readFlagWords(p.get("f") || "");
  state.options = {};
  for (const kv of (p.get("o") || "").split(",").filter(Boolean)) {
    const i = kv.indexOf("=");
    if (i > 0) state.options[kv.slice(0, i)] = kv.slice(i + 1);
  }
  state.history = [];
  state.winPinned = false;
  return true;
}

/* ---------------------------------------------------------------- start */

async function startup(path) {
  // The page needs this answer to start: a server still starting, restarting or busy, or a dropped Wi-Fi
  // request, is waited out, trying again ever less often (at most every 10 s), saying so meanwhile.
  for (let attempt = 1; ; attempt++) {
    let why;
    try {
      const resp = await fetch(path, {cache: "no-store"});
      if (resp.ok) return await resp.json();
      why = `${resp.status} ${resp.statusText}`;
      try { const data = await resp.json(); why = (data.error && data.error.message) || why; } catch (e) { /* text */ }
    } catch (e) {
      why = e.message;
    }
    const wait = Math.min(10000, 300 * 2 ** (attempt - 1));
    const words = (navigator.language || "").toLowerCase().startsWith("zh") ? T.zh : T.en;
    $("result").textContent = `${words.server}: ${why} — ${Math.round(wait / 100) / 10} s`;
    document.body.dataset.retries = String(attempt);
    await pause(wait);
  }
}

async function start() {
  const data = await startup("api/rules");
  $("result").textContent = "";
  state.rulesets = normaliseRules(data);
  state.order = Object.keys(state.rulesets);
  const defs = data.flag_defs || data.flags;
  state.flagDefs = Array.isArray(defs) && defs.length && defs[0].kind ? defs : FALLBACK_FLAGS;
  state.labels = data.labels || {};
  state.games = data.games || {};  // what a game under each ruleset records (game.js)
  if (data.default && state.rulesets[data.default]) state.rules = data.default;
  else if (!state.rulesets[state.rules]) state.rules = state.order[0];
  const navLang = (navigator.language || "").toLowerCase().startsWith("zh") ? "zh" : "en";
  state.lang = localStorage.getItem("mjcalc.lang") || navLang;
  readHash();

  $("ruleset").addEventListener("change", (e) => {
    state.rules = e.target.value;
    state.options = {};
    state.pick = null;
    if (state.mode === "special" && !(rs().special_kongs || []).length) state.mode = "tile";
    drawAll();
    changed();
  });
  for (const b of document.querySelectorAll(".lang button")) {
    b.addEventListener("click", () => {
      state.lang = b.dataset.lang;
      try { localStorage.setItem("mjcalc.lang", state.lang); } catch (e) { /* private mode */ }
      drawAll();
      changed();
      gameLanguage();
    });
  }
  $("notation").addEventListener("input", () => {
    state.winPinned = false;
    drawHand();
    drawPalette();
    changed(250);
  });
  $("notation").addEventListener("change", liftFlags);  // leaving the field, or Enter
  $("notation").addEventListener("keydown", (e) => { if (e.key === "Enter") liftFlags(); });
  $("undo").addEventListener("click", () => {
    if (state.history.length) setField(state.history.pop(), false);
    else edit((h) => { if (h.tiles.length) h.tiles.pop(); else if (h.melds.length) h.melds.pop(); else h.flowers.pop(); });
  });
  $("clear").addEventListener("click", () => { state.winPinned = false; setField(""); });
  $("share").addEventListener("click", async () => {
    writeHash();
    const link = $("share-link");
    link.select();
    try { await navigator.clipboard.writeText(link.value); $("share").textContent = t("copied"); }
    catch (e) { try { document.execCommand("copy"); $("share").textContent = t("copied"); } catch (e2) { /* shown */ } }
    setTimeout(() => { $("share").textContent = t("share"); }, 1500);
  });
  window.addEventListener("hashchange", () => {
    if (inGameHash() || state.view === "game") return;  // game.js's
    const before = $("share-link").value;
    if (before === location.href) return;
    if (readHash()) { drawAll(); changed(); }
  });
  $("footer").textContent = "mjcalc";
  drawAll();
  changed();
  gameInit();
}

start();
