/* mjcalc serve: a whole game on the page. Loaded before app.js, whose tiles, palette, notation field and
score drawing it uses; started by app.js once the rulesets are in (gameInit).

The server keeps the game (the store `mjcalc game` uses) and plays it (the engine): this page only asks and
draws. A game is at #game=ID; its sheet comes from GET api/games/ID and then from the server-sent events of
api/games/ID/events, one sheet per change, whoever made it (another phone, `mjcalc game add`). A hand is
recorded as the table saw it — who won, from whom, the tiles, riichi, who was ready, others' kongs, penalties
— as one GAME.md result, POST api/games/ID/results with the hand's number: a phone that was second for the
same hand is told so (409) and shown the sheet as it is.
*/
"use strict";

const G = {
  en: {
    game: "Game", calculator: "Calculator", new_game: "New game", players: "Players", player: "player",
    first_dealer: "first dealer", start: "Start the game", recent: "Your games here", open: "open",
    ruleset: "Ruleset", game_options: "Game options", hand_options: "Hand options", names_needed: "Four different names",
    hand: "hand", next_hand: "Next", dealer: "dealer", round: "round", honba: "honba", table: "on the table",
    streak: "streak", standing: "Standing", record: "Record hand", win: "win", draw: "draw", abort: "abortive draw",
    penalty: "penalty", winner: "Winner", from: "From", self_drawn: "self-drawn", riichi: "Riichi",
    ready: "Ready at the draw", nagashi: "Nagashi mangan", kongs: "Other players' kongs", kongs_hint: "[7777z] (1111m)",
    pao: "Liable (pao)", nobody: "nobody", another: "+ another winner (same discard)", second_hand: "second winner's hand",
    remove: "remove", abort_kind: "Kind", offender: "Who", false_win: "false win", amount: "amount", to: "to",
    each: "each player", to_table: "the table", sheet: "Sheet", change: "change", total: "total",
    undo: "Undo hand", undo_again: "Tap again to undo hand", ended: "The game has ended", ranking: "Ranking",
    points: "points", chart: "Scores over the hands", join: "Join this game", copy: "copy link", copied: "link copied",
    live: "live", reconnecting: "reconnecting…", not_found: "No game at this address.", recorded: "recorded",
    taken: "Another phone was first", elsewhere: "Another phone recorded this hand first: look at the sheet.", pick_winner: "Tap the winner.", pick_from: "Tap who discarded, or self-drawn.",
    enter_hand: "Enter the winning hand.", hui: "Wildcard tile (会)", no_hands: "No hand recorded yet.",
    leftover: "left on the table", grade: "grade",
    nine_terminals: "nine terminals", four_winds: "four winds", four_riichi: "four riichi", four_kongs: "four kongs",
    triple_ron: "three winners", game_label: "game", preview: "If recorded", chart_svg: "the picture (SVG)",
  },
  zh: {
    game: "对局", calculator: "算番", new_game: "新对局", players: "玩家", player: "玩家",
    first_dealer: "首庄", start: "开始对局", recent: "本机的对局", open: "打开",
    ruleset: "规则", game_options: "对局选项", hand_options: "和牌选项", names_needed: "四个不同的名字",
    hand: "第", next_hand: "下一盘", dealer: "庄", round: "圈", honba: "本场", table: "场上",
    streak: "连庄", standing: "比分", record: "记录第", win: "和牌", draw: "流局", abort: "途中流局",
    penalty: "罚分", winner: "和家", from: "放炮", self_drawn: "自摸", riichi: "立直",
    ready: "流局时听牌", nagashi: "流局满贯", kongs: "其他玩家的杠", kongs_hint: "[7777z] (1111m)",
    pao: "包牌", nobody: "无", another: "+ 另一家也和（同一张牌）", second_hand: "第二家的手牌",
    remove: "删除", abort_kind: "种类", offender: "谁", false_win: "诈和", amount: "点数", to: "给",
    each: "每家", to_table: "场上", sheet: "记分表", change: "得失", total: "累计",
    undo: "撤销第", undo_again: "再点一次撤销第", ended: "对局结束", ranking: "名次",
    points: "得点", chart: "分数走势", join: "加入对局", copy: "复制链接", copied: "链接已复制",
    live: "同步中", reconnecting: "重新连接…", not_found: "没有这个对局。", recorded: "已记录",
    taken: "另一部手机已先记录", elsewhere: "另一部手机已先记录了这一盘：请看记分表。", pick_winner: "点和家。", pick_from: "点放炮的人，或自摸。",
    enter_hand: "输入和牌的手牌。", hui: "会牌", no_hands: "还没有记录。",
    leftover: "场上剩余", grade: "品级",
    nine_terminals: "九种九牌", four_winds: "四风连打", four_riichi: "四家立直", four_kongs: "四杠散了",
    triple_ron: "三家和", game_label: "对局", preview: "记录后", chart_svg: "图片（SVG）",
  },
};
const g = (key) => (G[state.lang] && G[state.lang][key]) || G.en[key] || key;
const WINDS = ["E", "S", "W", "N"];
const WIND_ZH = {E: "东", S: "南", W: "西", N: "北"};
// The flags the game fills in from its state (GAME.md): the page never asks for them while recording.
const GAME_FILLED = new Set(["seat", "round", "from", "zimo", "honba", "sticks", "lian", "riichi", "pao", "rules", "win"]);
const RECENT_KEY = "mjcalc.games";

const game = {
  id: null, sheet: null, version: "", source: null, live: false,
  kind: "win", winner: null, from: null, riichi: [], ready: [], nagashi: [], kongs: {}, pao: null, hui: "",
  second: null, abort: null, penalty: {player: null, kind: "amount", amount: 1000, to: "table"},
  previewSeq: 0, previewTimer: 0, sending: false, undoArmed: 0, start: {names: ["", "", "", ""], dealer: 0,
    rules: null, options: {}},
};

function gameRules() { return state.rulesets[game.sheet ? game.sheet.ruleset : game.start.rules] || {}; }
function gameInfo() { return (state.games || {})[game.sheet ? game.sheet.ruleset : game.start.rules] || {}; }
function players() { return game.sheet ? game.sheet.players : []; }

/* ---------------------------------------------------------------- the view: calculator or game */

function inGameHash() { return location.hash.startsWith("#game"); }

function gameInit() {
  for (const id of ["game-start-btn", "game-record-btn", "game-undo", "game-copy", "to-game"]) {
    if (!$(id)) return;  // a page without the game's markup
  }
  $("to-game").addEventListener("click", () => {
    if (state.view === "game") { location.hash = ""; return; }
    location.hash = game.id ? `#game=${game.id}` : "#game";
  });
  $("game-start-btn").addEventListener("click", gameCreate);
  $("game-record-btn").addEventListener("click", gameRecord);
  $("game-undo").addEventListener("click", gameUndo);
  $("game-copy").addEventListener("click", async () => {
    const link = $("game-link");
    link.select();
    try { await navigator.clipboard.writeText(link.value); } catch (e) { try { document.execCommand("copy"); } catch (e2) { /* shown */ } }
    $("game-copy").textContent = g("copied");
    setTimeout(() => { $("game-copy").textContent = g("copy"); }, 1500);
  });
  $("hui-input").addEventListener("input", (e) => { game.hui = e.target.value; gamePreviewSoon(400); });
  $("penalty-amount").addEventListener("input", (e) => {
    game.penalty.amount = e.target.value.replace(/[^0-9]/g, "");
    gamePreviewSoon(400);
  });
  window.addEventListener("hashchange", gameRoute);
  let resized = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(() => { if (game.sheet && state.view === "game") drawChart(); }, 200);
  });
  gameRoute();
}

function gameRoute() {
  if (!inGameHash()) {
    if (state.view === "game") leaveGame();
    return;
  }
  const id = new URLSearchParams(location.hash.slice(1)).get("game") || "";
  enterGameView();
  if (!id) { openStart(); return; }
  if (id !== game.id) openGame(id);
}

function enterGameView() {
  if (state.view !== "game") {
    state.view = "game";
    state.calc = {rules: state.rules, line: $("notation").value, flags: state.flags, options: state.options};
    state.flags = {};
    state.options = {};
  }
  document.body.dataset.view = "game";
  $("game-view").hidden = false;
  drawGameStatic();
}

function leaveGame() {
  closeStream();
  game.id = null;
  game.sheet = null;
  state.view = "calc";
  document.body.dataset.view = "calc";
  $("game-view").hidden = true;
  const main = document.querySelector("main");
  for (const id of ["hand-card", "palette-card", "flags-card", "options-card", "result-card", "share-card"]) {
    main.insertBefore($(id), $("footer"));
  }
  if (state.calc) {
    state.rules = state.calc.rules;
    $("notation").value = state.calc.line;
    state.flags = state.calc.flags;
    state.options = state.calc.options;
  }
  readHash();
  drawAll();
  drawGameStatic();
  changed();
}

function drawGameStatic() {
  for (const el of document.querySelectorAll("[data-g]")) el.textContent = g(el.dataset.g);
  $("to-game").textContent = state.view === "game" ? g("calculator") : g("game");
  $("to-game").classList.toggle("on", state.view === "game");
}

/* ---------------------------------------------------------------- starting a game */

function recentGames() {
  try { return JSON.parse(localStorage.getItem(RECENT_KEY) || "[]").filter((x) => x && x.id); } catch (e) { return []; }
}

function remember(id, sheet) {
  const list = recentGames().filter((x) => x.id !== id);
  list.unshift({id, players: sheet.players, rules: sheet.ruleset, at: Date.now()});
  try { localStorage.setItem(RECENT_KEY, JSON.stringify(list.slice(0, 8))); } catch (e) { /* private mode */ }
}

function openStart() {
  closeStream();
  game.id = null;
  game.sheet = null;
  $("game-start").hidden = false;
  $("game-play").hidden = true;
  $("game-message").textContent = "";
  const s = game.start;
  if (!s.rules || !state.rulesets[s.rules]) s.rules = (state.calc && state.calc.rules) || state.rules;
  if (!s.names.some(Boolean)) {
    try { s.names = JSON.parse(localStorage.getItem("mjcalc.players") || "null") || s.names; } catch (e) { /* none */ }
  }
  drawStart();
}

function drawStart() {
  const s = game.start;
  const names = $("game-names");
  names.innerHTML = "";
  s.names.forEach((name, i) => {
    const row = el("label", "name-row");
    row.append(el("span", "seat-chip", windLabel(WINDS[i])));
    const input = document.createElement("input");
    input.type = "text";
    input.maxLength = 64;
    input.value = name;
    input.placeholder = `${g("player")} ${i + 1}`;
    input.dataset.player = String(i);
    input.autocomplete = "off";
    input.addEventListener("input", () => { s.names[i] = input.value; drawDealerPick(); });
    row.appendChild(input);
    names.appendChild(row);
  });
  const sel = $("game-rules");
  sel.innerHTML = "";
  for (const id of state.order) {
    const opt = document.createElement("option");
    opt.value = id;
    opt.textContent = state.rulesets[id].names[state.lang] || state.rulesets[id].names.en;
    sel.appendChild(opt);
  }
  sel.value = s.rules;
  sel.onchange = () => { s.rules = sel.value; s.options = {}; drawStart(); };
  drawDealerPick();
  drawStartOptions();
  drawRecent();
}

function drawDealerPick() {
  const s = game.start;
  const box = $("game-dealer");
  box.innerHTML = "";
  s.names.forEach((name, i) => {
    const b = button(name.trim() || `${g("player")} ${i + 1}`, "seg-b" + (s.dealer === i ? " on" : ""),
      () => { s.dealer = i; drawDealerPick(); }, {player: String(i)});
    box.appendChild(b);
  });
}

function drawStartOptions() {
  const s = game.start;
  const r = state.rulesets[s.rules];
  for (const [boxId, wantGame] of [["game-options", true], ["game-hand-options", false]]) {
    const box = $(boxId);
    box.innerHTML = "";
    for (const [name, o] of Object.entries((r && r.options) || {})) {
      if (Boolean(o.game) !== wantGame) continue;
      box.appendChild(optionRow(name, o, s.options, () => {}));
    }
    box.closest("details").hidden = !box.children.length;
  }
}

function drawRecent() {
  const box = $("game-recent");
  box.innerHTML = "";
  const list = recentGames();
  $("game-recent-card").hidden = !list.length;
  for (const item of list) {
    const b = button(`${(item.players || []).join(" · ")}`, "wide recent", () => { location.hash = `#game=${item.id}`; },
      {game: item.id});
    b.appendChild(el("small", null, ` ${item.rules || ""}`));
    box.appendChild(b);
  }
}

function optionJson(o, v) {
  // An option as typed ("on", "2", "none") into the JSON value the game header takes.
  if (o && o.type === "bool") return v === "on";
  if (v === "none") return null;
  if (/^-?[0-9]+$/.test(v)) return Number(v);
  return v;
}

async function gameCreate() {
  const s = game.start;
  const names = s.names.map((n) => n.trim());
  if (names.some((n) => !n) || new Set(names).size !== 4) { $("game-message").textContent = g("names_needed"); return; }
  try { localStorage.setItem("mjcalc.players", JSON.stringify(names)); } catch (e) { /* private mode */ }
  const r = state.rulesets[s.rules] || {};
  const set = {};
  for (const [k, v] of Object.entries(s.options)) set[k] = optionJson((r.options || {})[k], v);
  const header = {game: {players: names, rules: s.rules, set, dealer: names[s.dealer]}};
  $("game-start-btn").disabled = true;
  try {
    const {status, data} = await gameRequest("POST", `api/games?lang=${state.lang}`, header);
    if (status === 201) {
      remember(data.id, data.sheet);
      game.sheet = null;
      location.hash = `#game=${data.id}`;
    } else $("game-message").textContent = errorWords(data, status);
  } finally {
    $("game-start-btn").disabled = false;
  }
}

/* ---------------------------------------------------------------- a game open */

async function gameRequest(method, path, payload) {
  // As app.js's post: a dropped request or a busy server (503) is tried again, a few times; the answer's
  // status and JSON, whatever they are.
  for (let attempt = 1; ; attempt++) {
    try {
      const init = {method, cache: "no-store"};
      if (payload !== undefined) {
        init.headers = {"Content-Type": "application/json"};
        init.body = JSON.stringify(payload);
      }
      const resp = await fetch(path, init);
      if (resp.status === 503 && attempt < 4) { await pause(300 * attempt); continue; }
      let data = null;
      try { data = await resp.json(); } catch (e) { data = null; }
      return {status: resp.status, data};
    } catch (e) {
      if (attempt >= 4) return {status: 0, data: {error: {message: `${t("server")}: ${e.message}`}}};
      await pause(300 * attempt);
    }
  }
}

function errorWords(data, status) {
  return (data && data.error && data.error.message) || `${t("server")} (${status})`;
}

async function openGame(id) {
  closeStream();
  game.id = id;
  game.sheet = null;
  game.version = "";
  $("game-start").hidden = true;
  $("game-play").hidden = true;
  $("game-message").textContent = "…";
  const {status, data} = await gameRequest("GET", `api/games/${encodeURIComponent(id)}?lang=${state.lang}`);
  if (game.id !== id) return;
  if (status !== 200) {
    $("game-message").textContent = status === 404 ? g("not_found") : errorWords(data, status);
    return;
  }
  $("game-message").textContent = "";
  resetForm();
  showSheet(data, "");
  remember(id, data);
  listen();
  $("game-link").value = location.href;
  $("game-qr").src = `api/games/${encodeURIComponent(id)}/qr.svg`;
}

function listen() {
  closeStream();
  if (!game.id || typeof EventSource === "undefined") return;
  const source = new EventSource(`api/games/${encodeURIComponent(game.id)}/events?lang=${state.lang}`);
  source.addEventListener("sheet", (e) => {
    if (source !== game.source) return;
    try { showSheet(JSON.parse(e.data), e.lastEventId || ""); } catch (err) { /* a broken event: the next one */ }
  });
  source.addEventListener("open", () => setLive(true));
  source.addEventListener("error", () => setLive(false));
  game.source = source;
}

function closeStream() {
  if (game.source) game.source.close();
  game.source = null;
  setLive(false);
}

function setLive(on) {
  game.live = on;
  const dot = $("game-live");
  if (!dot) return;
  dot.textContent = on ? `● ${g("live")}` : game.id ? `○ ${g("reconnecting")}` : "";
  dot.classList.toggle("on", on);
  document.body.dataset.live = on ? "1" : "0";
}

function formDirty() {
  return game.winner !== null || !!game.fromChosen || !!$("notation").value.trim() || game.riichi.length > 0
    || game.ready.length > 0 || game.nagashi.length > 0 || Object.values(game.kongs).some((v) => v.trim())
    || game.penalty.player !== null;
}

function showSheet(sheet, version, own) {
  // `own`: the answer to this phone's own change (else a stream's event, or a read)
  const before = game.sheet;
  game.sheet = sheet;
  if (version) game.version = version;
  document.body.dataset.hands = String(sheet.hands.length);
  $("game-play").hidden = false;
  if (!before || before.ruleset !== sheet.ruleset) {
    state.rules = sheet.ruleset;
    drawAll();
    placeHandCards();
  }
  const nextBefore = before && before.final.next ? before.final.next.number : null;
  const nextNow = sheet.final.next ? sheet.final.next.number : null;
  if (before && (nextBefore !== nextNow || before.hands.length !== sheet.hands.length)) {
    game.previewSeq++;  // a preview of the hand just recorded (here or elsewhere) is no longer the next's
    if (!own && !game.sending && formDirty()) {
      // another phone recorded (or undid) first: what was entered here was for a hand that is no longer next
      resetForm();
      $("record-message").textContent = g("elsewhere");
    }
  }
  drawNext();
  drawSheet();
  drawChart();
  drawRecord();
}

function windLabel(w) { return state.lang === "zh" ? WIND_ZH[w] : w; }

function seatOf(player, dealer) { return WINDS[(player - dealer + 4) % 4]; }

function drawNext() {
  const sheet = game.sheet;
  const box = $("game-next");
  box.innerHTML = "";
  const f = sheet.final;
  const nxt = f.next;
  const head = el("div", "next-head");
  if (nxt) {
    head.append(el("b", "next-label", nxt.label));
    head.append(el("span", "muted", ` · ${state.lang === "zh" ? `${g("hand")} ${nxt.number} 盘` : `${g("hand")} ${nxt.number}`}`));
  } else {
    head.append(el("b", "next-label", g("ended")));
    if (f.reason) head.append(el("span", "muted", ` · ${reasonWords(f.reason)}`));
  }
  box.appendChild(head);
  if (nxt) {
    const facts = el("div", "next-facts");
    const info = gameInfo();
    facts.append(fact(g("dealer"), sheet.players[nxt.dealer]));
    facts.append(fact(g("round"), `${windLabel(nxt.round)}${nxt.round_number > 1 ? ` (${nxt.round_number})` : ""}`));
    if (nxt.honba || info.riichi) facts.append(fact(g("honba"), String(nxt.honba)));
    if (nxt.table || info.riichi) facts.append(fact(g("table"), String(nxt.table)));
    if (nxt.lian) facts.append(fact(g("streak"), String(nxt.lian)));
    box.appendChild(facts);
  }
  // the standing: each player's seat this hand (when there is one), name and score; at the end, the ranking
  const scores = f.scores;
  const order = nxt ? [0, 1, 2, 3] : f.ranking;
  const grid = el("div", "standing");
  order.forEach((p, k) => {
    const cell = el("div", "stand" + (nxt && p === nxt.dealer ? " dealer" : ""));
    cell.dataset.player = String(p);
    cell.dataset.score = String(scores[p]);
    const top = el("div", "stand-top");
    if (nxt) top.append(el("span", "seat-chip", windLabel(seatOf(p, nxt.dealer))));
    else top.append(el("span", "seat-chip place", String(k + 1)));
    top.append(el("span", "stand-name", sheet.players[p]));
    cell.append(top, el("div", "stand-score", String(scores[p])));
    if (!nxt && f.points) cell.append(el("div", "muted", `${signedNum(f.points[p])} ${g("points")}`));
    if (!nxt && f.grades && f.grades[p]) cell.append(el("div", "muted", f.grades[p].names ? (f.grades[p].names[state.lang] || f.grades[p].names.zh || "") : ""));
    grid.appendChild(cell);
  });
  box.appendChild(grid);
  if (!nxt && f.leftover) box.appendChild(el("p", "muted", `${g("leftover")}: ${f.leftover}`));
  $("game-record-card").hidden = !nxt;
}

function fact(label, value) {
  const s = el("span", "fact");
  s.append(el("small", null, label + " "), el("b", null, value));
  return s;
}

function signedNum(n) {
  if (n === null || n === undefined) return "";
  const v = Math.round(n * 10) / 10;
  return v > 0 ? `+${v}` : String(v);
}

// The words of `mjcalc game show` (mjcalc/game/render.py) for a result and for why a game ended, in both
// languages: the sheet's JSON carries numbers and ids, the page says them as the command line does.
const WORDS = {
  en: {tsumo: "{w} tsumo", ron: "{w} ron {d}", pao: "pao {p}", draw: "draw", ready: "ready {ps}",
    nagashi: "nagashi {ps}", abort: "abort: {k}", false_win: "{p} false win", redealt: "redealt",
    penalty: "penalty {p} {a} → {t}", riichi: "riichi {ps}", kongs: "kongs {p} {k}", table: "table", each: "each"},
  zh: {tsumo: "{w} 自摸", ron: "{w} 和 {d}", pao: "包 {p}", draw: "荒庄", ready: "听牌 {ps}",
    nagashi: "流局满贯 {ps}", abort: "途中流局：{k}", false_win: "{p} 诈和", redealt: "重打",
    penalty: "罚 {p} {a} → {t}", riichi: "立直 {ps}", kongs: "杠 {p} {k}", table: "场上", each: "每家"},
};
const LIMITS_ZH = {mangan: "满贯", haneman: "跳满", baiman: "倍满", sanbaiman: "三倍满", yakuman: "役满",
  "kazoe yakuman": "累计役满"};
const REASONS_ZH = [
  [/^a score below zero$/, "有人分数低于零"], [/^the last dealer stops in first place$/, "末局庄家居首，到此结束"],
  [/^the last round is played$/, "最后一圈已打完"], [/^a player at (\d+) or more in the extra round$/, "延长圈中有人达到 {n} 以上"],
  [/^a player at (\d+) or more after the last round$/, "最后一圈后有人达到 {n} 以上"], [/^(\d+) hands are played$/, "已打满 {n} 盘"],
];

function say(key, values) {
  const text = (WORDS[state.lang] || WORDS.en)[key] || WORDS.en[key];
  return text.replace(/\{(\w+)\}/g, (_, k) => (values[k] === undefined ? "" : String(values[k])));
}

function reasonWords(reason) {
  if (!reason || state.lang !== "zh") return reason || "";
  for (const [pattern, text] of REASONS_ZH) {
    const found = pattern.exec(reason);
    if (found) return text.replace("{n}", found[1] || "");
  }
  return reason;
}

function resultWords(h) {
  const names = game.sheet.players;
  const list = (ps) => ps.map((p) => names[p]).join(", ");
  const parts = [];
  if (h.result === "win") {
    parts.push(h.wins.map((w) => {
      const s = w.score || {};
      const words = [w.from === null || w.from === undefined ? say("tsumo", {w: names[w.winner]})
        : say("ron", {w: names[w.winner], d: names[w.from]})];
      const unit = (s.items && s.items.length ? s.items[0].unit : gameRules().unit) || "";
      if (s.fan !== undefined) words.push(`${s.fan} ${unitWord(unit)}${s.fu ? ` ${s.fu} ${t("fu")}` : ""}`);
      if (s.limit) words.push(state.lang === "zh" ? LIMITS_ZH[s.limit] || s.limit : s.limit);
      if (s.points !== undefined) words.push(String(s.points));
      if (w.pao !== null && w.pao !== undefined) words.push(say("pao", {p: names[w.pao]}));
      return words.join(" · ");
    }).join("; "));
  } else if (h.result === "draw") {
    parts.push(say("draw", {}));
    if ((h.ready || []).length) parts.push(say("ready", {ps: list(h.ready)}));
    if ((h.nagashi || []).length) parts.push(say("nagashi", {ps: list(h.nagashi)}));
  } else if (h.result === "abort") {
    parts.push(say("abort", {k: g(h.abort || "")}));
  } else {
    const p = h.penalty || {};
    const who = names[p.player] || "?";
    if (p.kind === "false_win") {
      parts.push(say("false_win", {p: who}));
      if (h.result === "redeal") parts.push(say("redealt", {}));
    } else {
      const to = typeof p.to === "number" ? names[p.to] : p.to === "table" ? say("table", {}) : say("each", {});
      parts.push(say("penalty", {p: who, a: p.amount, t: to}));
    }
  }
  if ((h.riichi || []).length) parts.push(say("riichi", {ps: list(h.riichi)}));
  for (const k of h.kongs || []) parts.push(say("kongs", {p: names[k.player], k: (k.kongs || []).join(" ")}));
  return parts.join(" · ");
}

function drawSheet() {
  const sheet = game.sheet;
  const box = $("game-sheet");
  box.innerHTML = "";
  if (!sheet.hands.length) {
    box.appendChild(el("p", "muted", g("no_hands")));
  } else {
    const tb = el("table", "sheet");
    const head = el("tr");
    head.appendChild(el("th", null, "#"));
    for (const name of sheet.players) head.appendChild(el("th", "pname", name));
    tb.appendChild(el("thead")).appendChild(head);
    const bodyEl = tb.appendChild(el("tbody"));
    for (const h of sheet.hands) {
      const tr = el("tr");
      tr.dataset.number = String(h.number);
      tr.dataset.result = h.result;
      tr.dataset.changes = h.changes.join(",");
      const first = el("td", "hlabel");
      first.append(el("b", null, `${h.number} ${h.label}`), el("small", "words", resultWords(h)));
      tr.appendChild(first);
      h.changes.forEach((c, p) => {
        const td = el("td", "num" + (c > 0 ? " up" : c < 0 ? " down" : ""));
        td.append(el("span", "chg", c ? signed(c) : "·"), el("small", "tot", String(h.end[p])));
        tr.appendChild(td);
      });
      bodyEl.appendChild(tr);
    }
    box.appendChild(tb);
  }
  const last = sheet.hands[sheet.hands.length - 1];
  const undo = $("game-undo");
  undo.hidden = !last;
  game.undoArmed = 0;
  if (last) undo.textContent = undoWords(last.number, false);
  undo.classList.remove("armed");
}

function undoWords(number, armed) {
  const lead = armed ? g("undo_again") : g("undo");
  return state.lang === "zh" ? `${lead} ${number} 盘` : `${lead} ${number}`;
}

// The chart's colours and markers are those of `mjcalc game show --svg` (mjcalc/game/chart.py): Okabe–Ito's,
// told apart by people with any colour vision, and a shape for each player besides.
const COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7"];
const SVGNS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

function marker(p, x, y, r) {
  const c = COLOURS[p];
  if (p === 0) return svgEl("circle", {cx: x, cy: y, r, fill: c});
  if (p === 1) return svgEl("rect", {x: x - r * 0.9, y: y - r * 0.9, width: r * 1.8, height: r * 1.8, fill: c});
  const s = r * 1.25;
  const pts = p === 2 ? [[x, y - s], [x + s, y + s * 0.8], [x - s, y + s * 0.8]] : [[x, y - s], [x + s, y], [x, y + s], [x - s, y]];
  return svgEl("polygon", {points: pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" "), fill: c});
}

function ticksFor(low, high) {
  // round values over low … high: steps of 1, 2, 2.5 or 5 times a power of ten
  if (high <= low) high = low + 1;
  const raw = (high - low) / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((v) => v >= raw);
  const out = [];
  for (let v = Math.floor(low / step) * step; v < high + step * 0.999; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

function drawChart() {
  // The scores over the hands, drawn here to the phone's width (its words at the page's size); the server's
  // picture of it (chart.svg, as `mjcalc game show --svg` draws it) is a tap away.
  const sheet = game.sheet;
  const box = $("game-chart");
  box.innerHTML = "";
  $("game-chart-card").hidden = sheet.hands.length < 1;
  $("game-chart-svg").href = `api/games/${encodeURIComponent(game.id)}/chart.svg?lang=${state.lang}`;
  if (!sheet.hands.length) return;
  const hands = sheet.hands;
  const series = [0, 1, 2, 3].map((p) => [hands[0].start[p], ...hands.map((h) => h.end[p])]);
  const all = series.flat();
  const origin = new Set(hands[0].start).size === 1 ? hands[0].start[0] : 0;
  const ticks = ticksFor(Math.min(...all, origin), Math.max(...all, origin));
  const W = Math.max(280, Math.min(720, box.clientWidth || 340)), H = 220;
  const L = 8 + 7.5 * Math.max(...ticks.map((v) => String(v).length)), R = 10, T = 10, B = 26;
  const pw = W - L - R, ph = H - T - B, n = series[0].length;
  const x = (i) => L + (n > 1 ? (pw * i) / (n - 1) : pw / 2);
  const y = (v) => T + ph - ((v - ticks[0]) * ph) / ((ticks[ticks.length - 1] - ticks[0]) || 1);
  const svg = svgEl("svg", {viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", class: "chart-svg",
    "font-size": 12, "font-family": "system-ui, sans-serif"});
  svg.appendChild(svgEl("title", {}, g("chart")));
  for (const v of ticks) {
    svg.appendChild(svgEl("line", {x1: L, y1: y(v), x2: L + pw, y2: y(v), stroke: "#e3e3e3"}));
    svg.appendChild(svgEl("text", {x: L - 6, y: y(v) + 4, "text-anchor": "end", fill: "#444"}, String(v)));
  }
  svg.appendChild(svgEl("line", {x1: L, y1: y(origin), x2: L + pw, y2: y(origin), stroke: "#555", "stroke-width": 1.2,
    "stroke-dasharray": "6 4"}));
  const every = Math.max(1, Math.ceil(n / Math.max(2, Math.floor(pw / 44))));
  for (let i = 0; i < n; i++) {
    if (i % every && i !== n - 1) continue;
    svg.appendChild(svgEl("text", {x: x(i), y: H - 8, "text-anchor": i === 0 ? "start" : i === n - 1 ? "end" : "middle",
      fill: "#444"}, i === 0 ? "0" : String(hands[i - 1].number)));
  }
  series.forEach((values, p) => {
    const group = svgEl("g", {"data-player": p});
    group.appendChild(svgEl("polyline", {points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
      fill: "none", stroke: COLOURS[p], "stroke-width": 2.5, "stroke-linejoin": "round"}));
    values.forEach((v, i) => { if (n <= 30 || i === n - 1) group.appendChild(marker(p, x(i), y(v), i === n - 1 ? 4.5 : 3)); });
    svg.appendChild(group);
  });
  box.appendChild(svg);
  const legend = el("div", "legend");
  sheet.players.forEach((name, p) => {
    const item = el("span", "legend-item");
    const sw = svgEl("svg", {viewBox: "0 0 24 12", width: 24, height: 12, "aria-hidden": "true"});
    sw.append(svgEl("line", {x1: 0, y1: 6, x2: 24, y2: 6, stroke: COLOURS[p], "stroke-width": 2.5}), marker(p, 12, 6, 4));
    item.append(sw, ` ${name} `, el("b", null, String(series[p][n - 1])));
    legend.appendChild(item);
  });
  box.appendChild(legend);
}

/* ---------------------------------------------------------------- recording a hand */

function resetForm() {
  Object.assign(game, {kind: "win", winner: null, from: null, fromChosen: false, riichi: [], ready: [], nagashi: [],
    kongs: {}, pao: null, hui: "", second: null, abort: null});
  game.penalty = {player: null, kind: "amount", amount: 1000, to: "table"};
  state.flags = {};
  state.history = [];
  state.winPinned = false;
  $("notation").value = "";
  $("record-message").textContent = "";
  $("game-preview").innerHTML = "";
  $("result").innerHTML = "";
  $("status").textContent = "";
  showError(null);
  drawHand();
  drawPalette();
}

function placeHandCards() {
  // The calculator's hand field, palette and extra flags serve the winning hand: moved into the form.
  const slot = $("game-hand-slot");
  for (const id of ["hand-card", "palette-card", "flags-card", "result-card"]) slot.appendChild($(id));
}

function seg(box, items, chosen, onPick, opts) {
  // A row of buttons, one chosen (or several: `chosen` an array)
  box.innerHTML = "";
  for (const [value, label, disabled] of items) {
    const on = Array.isArray(chosen) ? chosen.includes(value) : chosen === value;
    const b = button(label, "seg-b" + (on ? " on" : ""), () => onPick(value), {value: String(value)});
    b.setAttribute("aria-pressed", on ? "true" : "false");
    if (disabled) b.disabled = true;
    box.appendChild(b);
  }
  if (opts && opts.cls) box.className = opts.cls;
}

function toggled(list, value) { return list.includes(value) ? list.filter((x) => x !== value) : [...list, value]; }

function playerItems(disabled) {
  const sheet = game.sheet;
  const dealer = sheet.final.next ? sheet.final.next.dealer : 0;
  return sheet.players.map((name, p) => [p, `${windLabel(seatOf(p, dealer))} ${name}`, disabled ? disabled(p) : false]);
}

function drawRecord() {
  const sheet = game.sheet;
  if (!sheet || !sheet.final.next) return;
  const info = gameInfo();
  const nxt = sheet.final.next;
  $("record-title").textContent = state.lang === "zh" ? `${g("record")} ${nxt.number} 盘 · ${nxt.label}` : `${g("record")} ${nxt.number} · ${nxt.label}`;
  $("game-record-btn").textContent = state.lang === "zh" ? `${g("record")} ${nxt.number} 盘` : `${g("record")} ${nxt.number}`;
  const kinds = [["win", g("win")], ["draw", g("draw")]];
  if ((info.aborts || []).length) kinds.push(["abort", g("abort")]);
  kinds.push(["penalty", g("penalty")]);
  seg($("record-kind"), kinds, game.kind, (k) => { game.kind = k; drawRecord(); gamePreviewSoon(0); });
  const is = (k) => game.kind === k;
  show("rec-winner", is("win"));
  show("rec-from", is("win"));
  show("rec-pao", is("win") && (gameRules().flags || []).includes("pao"));
  show("rec-second", is("win") && (info.winners || 1) > 1 && game.from !== null);
  show("game-hand-slot", is("win"));
  show("rec-riichi", (is("win") || is("draw") || is("abort")) && !!info.riichi);
  show("rec-ready", is("draw") && !!info.ready);
  show("rec-nagashi", is("draw") && !!info.nagashi && (sheet.options || {}).nagashi !== false);
  show("rec-kongs", (is("win") || is("draw")) && !!info.kongs);
  show("rec-hui", is("draw") && !!info.kongs && (gameRules().flags || []).includes("hui") && Object.values(game.kongs).some((v) => v.trim()));
  show("rec-abort", is("abort"));
  show("rec-penalty", is("penalty"));

  seg($("winner-pick"), playerItems(), game.winner, (p) => {
    game.winner = game.winner === p ? null : p;
    if (game.from === game.winner) game.from = null;
    if (game.pao === game.winner) game.pao = null;
    delete game.kongs[p];
    drawRecord();
    gamePreviewSoon(0);
  }, {cls: "seg players"});
  const fromItems = [["self", g("self_drawn")], ...playerItems((p) => p === game.winner)];
  seg($("from-pick"), fromItems, game.from === null ? (game.fromChosen ? "self" : null) : game.from, (v) => {
    game.fromChosen = true;
    game.from = v === "self" ? null : v;
    if (game.from === null) game.second = null;
    drawRecord();
    gamePreviewSoon(0);
  }, {cls: "seg players"});
  seg($("pao-pick"), [["none", g("nobody")], ...playerItems((p) => p === game.winner)], game.pao === null ? "none" : game.pao,
    (v) => { game.pao = v === "none" ? null : v; drawRecord(); gamePreviewSoon(0); }, {cls: "seg players"});
  seg($("riichi-pick"), playerItems(), game.riichi, (p) => { game.riichi = toggled(game.riichi, p); drawRecord(); gamePreviewSoon(0); },
    {cls: "seg players"});
  seg($("ready-pick"), playerItems(), game.ready, (p) => { game.ready = toggled(game.ready, p); drawRecord(); gamePreviewSoon(0); },
    {cls: "seg players"});
  seg($("nagashi-pick"), playerItems(), game.nagashi, (p) => { game.nagashi = toggled(game.nagashi, p); drawRecord(); gamePreviewSoon(0); },
    {cls: "seg players"});
  drawKongs();
  drawSecond();
  const aborts = (info.aborts || []).map((a) => [a, g(a)]);
  if (game.abort === null && aborts.length) game.abort = aborts[0][0];
  seg($("abort-pick"), aborts, game.abort, (a) => { game.abort = a; drawRecord(); gamePreviewSoon(0); }, {cls: "seg"});
  drawPenalty();
  $("hui-input").value = game.hui;
  const hint = is("win") && game.winner === null ? g("pick_winner")
    : is("win") && game.from === null && !game.fromChosen ? g("pick_from") : "";
  $("record-hint").textContent = hint;
  if (is("win")) drawFlags();
}

function show(id, on) { $(id).hidden = !on; }

function drawKongs() {
  const box = $("kongs-list");
  const sheet = game.sheet;
  const keep = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.player : null;
  box.innerHTML = "";
  sheet.players.forEach((name, p) => {
    if (game.kind === "win" && p === game.winner) return;
    const row = el("label", "kong-row");
    row.append(el("span", "kong-name", name));
    const input = document.createElement("input");
    input.type = "text";
    input.placeholder = g("kongs_hint");
    input.autocomplete = "off";
    input.autocapitalize = "off";
    input.spellcheck = false;
    input.value = game.kongs[p] || "";
    input.dataset.player = String(p);
    const drawn = el("span", "kong-tiles");
    const paint = () => {
      drawn.innerHTML = "";
      if (input.value.trim()) drawn.appendChild(tilesEl(input.value.trim()));
    };
    input.addEventListener("input", () => {
      game.kongs[p] = input.value;
      paint();
      show("rec-hui", game.kind === "draw" && Object.values(game.kongs).some((v) => v.trim())
        && (gameRules().flags || []).includes("hui"));
      gamePreviewSoon(400);
    });
    paint();
    row.append(input, drawn);
    box.appendChild(row);
    if (keep === String(p)) input.focus();
  });
}

function drawSecond() {
  const box = $("second-box");
  box.innerHTML = "";
  if (!game.second) {
    box.appendChild(button(g("another"), "wide", () => { game.second = {winner: null, hand: ""}; drawRecord(); }, {value: "add"}));
    return;
  }
  const pick = el("div", "seg players");
  seg(pick, playerItems((p) => p === game.winner || p === game.from), game.second.winner,
    (p) => { game.second.winner = p; drawRecord(); gamePreviewSoon(0); }, {cls: "seg players"});
  const input = document.createElement("input");
  input.type = "text";
  input.id = "second-hand";
  input.placeholder = g("second_hand");
  input.autocomplete = "off";
  input.autocapitalize = "off";
  input.spellcheck = false;
  input.value = game.second.hand;
  const drawn = el("div", "strip");
  const paint = () => { drawn.innerHTML = ""; if (input.value.trim()) drawn.appendChild(tilesEl(input.value.replace(/\+\S*/g, "").trim())); };
  input.addEventListener("input", () => { game.second.hand = input.value; paint(); gamePreviewSoon(400); });
  paint();
  box.append(pick, input, drawn, button(g("remove"), "seg-b", () => { game.second = null; drawRecord(); gamePreviewSoon(0); }, {value: "remove"}));
}

function drawPenalty() {
  const p = game.penalty;
  const info = gameInfo();
  seg($("penalty-player"), playerItems(), p.player, (v) => { p.player = v; drawRecord(); gamePreviewSoon(0); }, {cls: "seg players"});
  const kinds = [["amount", g("amount")]];
  if (info.false_win) kinds.unshift(["false_win", g("false_win")]);
  if (!kinds.some(([k]) => k === p.kind)) p.kind = kinds[0][0];
  seg($("penalty-kind"), kinds, p.kind, (v) => { p.kind = v; drawRecord(); gamePreviewSoon(0); }, {cls: "seg"});
  show("penalty-amount-row", p.kind === "amount");
  const amount = $("penalty-amount");
  if (document.activeElement !== amount) amount.value = String(p.amount);
  seg($("penalty-to"), [["table", g("to_table")], ["each", g("each")],
    ...playerItems((q) => q === p.player).map(([q, label, d]) => [String(q), label, d])], String(p.to),
  (v) => { p.to = v; drawRecord(); gamePreviewSoon(0); }, {cls: "seg players"});
}

function kongsJson(exclude) {
  const names = game.sheet.players;
  const out = {};
  for (const [p, text] of Object.entries(game.kongs)) {
    const melds = text.trim().split(/\s+/).filter(Boolean);
    if (melds.length && Number(p) !== exclude) out[names[Number(p)]] = melds;
  }
  return Object.keys(out).length ? out : null;
}

function handLine() {
  // The winning line: the field and the flags the game does not fill in itself
  const field = $("notation").value.trim();
  return [field, ...flagWords().filter((w) => !GAME_FILLED.has(w.slice(1).split("=")[0]))].filter(Boolean).join(" ");
}

function resultJson() {
  // The hand as GAME.md's JSON result (players by name); null with a hint when something is still missing.
  const names = game.sheet.players;
  const info = gameInfo();
  const riichi = info.riichi ? game.riichi.map((p) => names[p]) : [];
  if (game.kind === "win") {
    if (game.winner === null) return {missing: g("pick_winner")};
    if (game.from === null && !game.fromChosen) return {missing: g("pick_from")};
    const hand = handLine();
    if (!$("notation").value.trim()) return {missing: g("enter_hand")};
    const win = {winner: names[game.winner], hand};
    if (game.from !== null) win.from = names[game.from];
    if (game.pao !== null) win.pao = names[game.pao];
    const wins = [win];
    if (game.second && game.second.winner !== null && game.second.hand.trim() && game.from !== null) {
      wins.push({winner: names[game.second.winner], from: names[game.from], hand: game.second.hand.trim()});
    }
    const out = {win: wins};
    if (riichi.length) out.riichi = riichi;
    const kongs = info.kongs ? kongsJson(game.winner) : null;
    if (kongs) out.kongs = kongs;
    return out;
  }
  if (game.kind === "draw") {
    const draw = {ready: info.ready ? game.ready.map((p) => names[p]) : []};
    if (info.nagashi && game.nagashi.length) draw.nagashi = game.nagashi.map((p) => names[p]);
    const out = {draw};
    if (riichi.length) out.riichi = riichi;
    const kongs = info.kongs ? kongsJson(-1) : null;
    if (kongs) out.kongs = kongs;
    if (kongs && game.hui.trim()) out.hui = game.hui.trim();
    return out;
  }
  if (game.kind === "abort") {
    const out = {abort: game.abort};
    if (riichi.length) out.riichi = riichi;
    return out;
  }
  const p = game.penalty;
  if (p.player === null) return {missing: g("offender")};
  if (p.kind === "false_win") return {penalty: {player: names[p.player], kind: "false_win"}};
  const to = p.to === "table" || p.to === "each" ? p.to : names[Number(p.to)];
  return {penalty: {player: names[p.player], amount: Number(p.amount) || 0, to}};
}

function gamePreviewSoon(wait) {
  game.previewSeq++;
  clearTimeout(game.previewTimer);
  game.previewTimer = setTimeout(gamePreview, wait || 0);
}

async function gamePreview() {
  // What recording this hand would do, from the server (the engine applies it to the game and takes it back):
  // the win's score drawn as the calculator draws one, and each player's change.
  const seq = game.previewSeq;
  const sheet = game.sheet;
  if (!sheet || !sheet.final.next) { document.body.dataset.busy = "0"; return; }
  const result = resultJson();
  const out = $("game-preview");
  if (result.missing) {
    out.innerHTML = "";
    $("record-hint").textContent = result.missing;
    if (game.kind === "win") {
      showError(null);
      $("status").textContent = "";
      $("result").innerHTML = "";
    }
    document.body.dataset.busy = "0";
    return;
  }
  $("record-hint").textContent = "";
  document.body.dataset.busy = "1";
  const {status, data} = await gameRequest("POST", `api/games/${encodeURIComponent(game.id)}/preview?lang=${state.lang}`,
    {hand: sheet.final.next.number, result});
  if (seq !== game.previewSeq) return;
  out.innerHTML = "";
  const text = handLine();
  if (status === 200 && data && data.entry) {
    const entry = data.entry;
    if (game.kind === "win" && entry.wins && entry.wins[0] && entry.wins[0].score) render(entry.wins[0].score, null, text);
    out.appendChild(el("h3", null, g("preview")));
    const row = el("div", "standing preview");
    entry.changes.forEach((c, p) => {
      const cell = el("div", "stand");
      cell.dataset.player = String(p);
      cell.dataset.change = String(c);
      cell.append(el("div", "stand-top", sheet.players[p]), el("div", "stand-score" + (c > 0 ? " up" : c < 0 ? " down" : ""), c ? signed(c) : "0"),
        el("small", "muted", String(entry.end[p])));
      row.appendChild(cell);
    });
    out.appendChild(row);
    if (data.final && data.final.ended) {
      out.appendChild(el("p", "muted", `${g("ended")}${data.final.reason ? ` · ${reasonWords(data.final.reason)}` : ""}`));
    }
    out.dataset.state = "ok";
  } else {
    const message = errorWords(data, status);
    if (game.kind === "win") {
      $("result").innerHTML = "";
      $("status").textContent = "";
      const column = data && data.error && data.error.column;  // in the winning line, as sent
      showError({message, column: column || null}, text);
    } else out.appendChild(el("p", "error", message));
    out.dataset.state = "error";
  }
  document.body.dataset.busy = "0";
}

async function gameRecord() {
  if (game.sending || !game.sheet || !game.sheet.final.next) return;
  const result = resultJson();
  const message = $("record-message");
  if (result.missing) { message.textContent = result.missing; return; }
  game.sending = true;
  $("game-record-btn").disabled = true;
  message.textContent = "…";
  try {
    const sheet = game.sheet;
    const {status, data} = await gameRequest("POST", `api/games/${encodeURIComponent(game.id)}/results?lang=${state.lang}`,
      {hand: sheet.final.next.number, seen: sheet.hands.length, result});
    if (status === 201) {
      resetForm();
      showSheet(data, "", true);
      message.textContent = g("recorded");
      $("game-result-anchor").scrollIntoView({block: "start"});
    } else if (status === 409) {
      resetForm();
      await refresh();
      message.textContent = `${g("taken")}: ${errorWords(data, status)}`;
    } else message.textContent = errorWords(data, status);
  } finally {
    game.sending = false;
    $("game-record-btn").disabled = false;
  }
}

async function refresh() {
  const {status, data} = await gameRequest("GET", `api/games/${encodeURIComponent(game.id)}?lang=${state.lang}`);
  if (status === 200) showSheet(data, "", true);
}

async function gameUndo() {
  const sheet = game.sheet;
  const last = sheet && sheet.hands[sheet.hands.length - 1];
  if (!last) return;
  const undo = $("game-undo");
  if (!game.undoArmed) {  // two taps: a thumb that slips takes nothing back
    game.undoArmed = Date.now();
    undo.textContent = undoWords(last.number, true);
    undo.classList.add("armed");
    setTimeout(() => { if (game.undoArmed && Date.now() - game.undoArmed >= 2900) drawSheet(); }, 3000);
    return;
  }
  game.undoArmed = 0;
  const {status, data} = await gameRequest("POST", `api/games/${encodeURIComponent(game.id)}/undo?lang=${state.lang}`,
    {hand: last.number, seen: sheet.hands.length});
  if (status === 200) showSheet(data, "", true);
  else {
    $("record-message").textContent = errorWords(data, status);
    await refresh();
  }
}

function gameLanguage() {
  // app.js calls this when the language changes: the words, and the stream in the new language
  drawGameStatic();
  if (state.view !== "game") return;
  if (game.sheet) { drawNext(); drawSheet(); drawChart(); drawRecord(); listen(); }
  else if (!game.id) drawStart();
}
