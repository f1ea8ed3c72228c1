"""What the rest of mjcalc leans on and no pipeline stage owns: bounded memos, frozen dataclasses without the
dataclasses module, the packed built-in rulesets and where they are, reading a YAML file safely, a compiled
function's docstring, classes that stay Python classes in the compiled build."""
