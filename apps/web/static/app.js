// The phone page: the table's snapshots by server-sent events, a paired seat's presses
// by POST. No build step, no library: every byte is served by the appliance.
"use strict";

const $ = (id) => document.getElementById(id);
let view = null; // the last {public, private, you} from the table
let countdown = null;

function text(el, value) { el.textContent = value == null ? "" : String(value); }

function say(message, ok) {
  const m = $("message");
  text(m, message || "");
  m.className = ok ? "ok" : "";
}

// [status, answer], or [0, {error}] when the table cannot be reached
async function send(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? {} : { "Content-Type": "application/json", "X-Tavola": "1" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch (e) {
    return [0, { error: "The table cannot be reached: " + e.message }];
  }
  let answer = {};
  try { answer = await response.json(); } catch (e) { answer = {}; }
  if (!response.ok && !answer.error) answer.error = "The table refused (" + response.status + ").";
  return [response.status, answer];
}

async function post(path, body) {
  const [status, answer] = await send(path, body || {});
  if (status < 200 || status > 299) {
    say(answer.error);
    return null;
  }
  say("");
  return answer;
}

// A command for the paired seat. The table answers once it has acted: a refusal is its
// own sentence, shown by what was tapped (`where`: the menu's or the table buttons'),
// until this phone acts again or the board changes.
const refusals = {}; // where -> the board version the refusal was said at
async function command(name, extra, where) {
  const body = Object.assign({ command: name }, extra || {});
  const [status, answer] = await send("/api/command", body);
  const said = $(where || "controls-said");
  for (const w of Object.keys(refusals)) { text($(w), ""); delete refusals[w]; }
  if (status === 200) { say(""); return true; }
  text(said, answer.error);
  refusals[said.id] = view ? view.public.board : null;
  return false;
}

// --- drawing the table ------------------------------------------------------------------
function render(v) {
  view = v;
  const pub = v.public, you = v.you, priv = v.private;
  text($("title"), pub.title + (pub.round ? " · round " + pub.round : ""));
  text($("status"), pub.blocked ? pub.prompt + " " + pub.blocked : pub.prompt);
  for (const [where, board] of Object.entries(refusals)) { // said about a board now gone
    if (board !== pub.board) { text($(where), ""); delete refusals[where]; }
  }
  const turn = $("turn");
  turn.replaceChildren();
  if (pub.turn) {
    const dot = document.createElement("span");
    dot.className = "dot";
    dot.style.background = pub.turn.colour;
    turn.append(dot, document.createTextNode(pub.turn.name + " (" + pub.turn.colour_name + ") to act"));
  }
  $("board").innerHTML = pub.svg || ""; // drawn by the appliance from the public read model
  text($("last"), pub.last ? "Last: " + pub.last : "");
  renderSeat(pub, you, priv);
  renderChoices(pub, you, priv);
  renderControls(pub, you);
  if (you.paired !== settingsFor) pairedChanged(you.paired);
  renderScores(pub);
  const checklist = $("checklist");
  checklist.replaceChildren(...pub.checklist.map(li));
  $("checklist-section").hidden = pub.checklist.length === 0;
  const log = $("log");
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  log.replaceChildren(...pub.log.map(li));
  if (atEnd) log.scrollTop = log.scrollHeight;
}

function li(line) { const el = document.createElement("li"); text(el, line); return el; }

function renderSeat(pub, you, priv) {
  const paired = you.paired;
  if (paired) {
    const seat = pub.seats.find((s) => s.seat === you.seat);
    let who = "seat " + you.seat;
    if (seat) who = (seat.name === who ? who : seat.name + " at seat " + you.seat) + " (" + seat.colour_name + ")";
    text($("you"), "This phone plays " + who + ".");
  } else if (you.waiting && pub.pairing.asking) {
    text($("you"), "The table asks to pair phone " + you.code + " with seat " + pub.pairing.asking + ". If this phone shows that code, confirm where it asks: a tap of select (at a one-button seat, a hold of its button; at the table, a tap of menu). Anything else there refuses.");
  } else if (you.waiting && pub.pairing.seat) {
    text($("you"), "Waiting for the table: someone there holds menu (or select at any seat with buttons) to let this phone play seat " + pub.pairing.seat + ", then confirms code " + you.code + ".");
  } else if (you.waiting) {
    text($("you"), "Waiting for the table: hold select at your seat; the table asks to pair phone " + you.code + " with it, and a tap of select confirms.");
  } else {
    text($("you"), "Watching. Pair this phone with your seat to play from it and see your own secrets.");
  }
  $("pair").hidden = paired;
  // seats without buttons: a phone asks for one by name (the table still confirms)
  const phoneSeats = paired ? [] : (pub.phone_seats || []).filter((s) => !(pub.paired_seats || []).includes(s));
  $("pair-phone").replaceChildren(...phoneSeats.map((seat) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "pair-seat";
    text(b, "Play seat " + seat + " (no buttons)");
    b.addEventListener("click", () => askToPair({ seat: seat }));
    return b;
  }));
  const code = $("code");
  code.hidden = paired || !you.waiting;
  text(code, you.code || "");
  $("unpair").hidden = !paired;
  const secrets = $("secrets");
  secrets.replaceChildren();
  const mine = priv && priv.secrets ? priv.secrets : {};
  for (const [name, value] of Object.entries(mine)) {
    const dt = document.createElement("dt");
    const dd = document.createElement("dd");
    text(dt, name.replace(/_/g, " "));
    text(dd, Array.isArray(value) ? (value.length ? value.map((x) => x == null ? "(to name)" : x).join(", ") : "none") : (value == null ? "not entered yet" : value));
    secrets.append(dt, dd);
  }
  secrets.hidden = !paired || Object.keys(mine).length === 0;
}

function myMenu(pub, you, priv) {
  let menu = pub.menu;
  if (menu && menu.private) menu = priv && priv.menu ? priv.menu : null;
  if (!menu || !you.paired) return null;
  if (menu.seat !== "*" && menu.seat !== you.seat) return null;
  return menu;
}

// the choice this phone lit last, until the table's menu shows it (or moves on)
let picked = null; // {key, index}

function menuKey(menu, pub) {
  return JSON.stringify([menu.seat, menu.kind, menu.prefix, menu.options, pub.board]);
}

function lit(menu, pub) {
  if (picked && (picked.key !== menuKey(menu, pub) || picked.index === menu.index)) picked = null;
  return picked ? picked.index : menu.index;
}

const TITLES = {
  lobby: "Choose a game",
  check: "Component check",
  bot: "Confirm the bot's move once it is done on the board",
};
const HINTS = {
  game: "Tap a choice to light it on the board; Choose takes the lit choice.",
  lobby: "Tap a game to select it; Choose takes it.",
  check: "Answer with a tap.",
  bot: "Carry out the bot's move on the board, then tap Done on the board.",
  go_on: "Nothing to decide here: Go on when the table is ready.",
};

function renderChoices(pub, you, priv) {
  const menu = myMenu(pub, you, priv);
  const box = $("choices");
  box.hidden = !menu;
  if (!menu) { picked = null; return; }
  const kind = menu.kind;
  let title = TITLES[kind] || (menu.seat === "*" ? "Enter what came up" : "Your choice");
  if (kind === "go_on") title = menu.options[0].charAt(0).toUpperCase() + menu.options[0].slice(1);
  text($("choices-title"), title);
  text($("choices-hint"), HINTS[kind] || "");
  $("question").replaceChildren(...(kind === "check" ? pub.question : []).map(li));
  // a decision among words: tap lights one, Choose takes exactly the lit one
  const listed = kind === "game" || kind === "lobby";
  const index = listed ? lit(menu, pub) : 0;
  let path = menu.prefix.length ? menu.prefix.join(" ") + " …" : "";
  if (kind === "bot") path = menu.options[0];
  text($("path"), path);
  $("options").hidden = !listed;
  $("options").replaceChildren(...(listed ? menu.options : []).map((word, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.setAttribute("role", "option");
    b.setAttribute("aria-selected", i === index ? "true" : "false");
    b.dataset.index = String(i);
    text(b, word);
    b.addEventListener("click", () => tapChoice(i));
    return b;
  }));
  // the component check's answers: each one a button that answers
  $("answers").replaceChildren(...(kind === "check" ? menu.options : []).map((word, i) => {
    const b = el("button", word.charAt(0).toUpperCase() + word.slice(1));
    b.type = "button";
    b.addEventListener("click", () => command("choose", { index: i, board: pub.board }, "choices-said"));
    return b;
  }));
  const confirm = $("confirm");
  confirm.hidden = !(listed || kind === "bot");
  text(confirm, kind === "bot" ? "Done on the board" : "Choose " + (menu.options[index] || ""));
  $("go-on").hidden = kind !== "go_on";
  $("back").hidden = !(listed && menu.can_back);
}

// a tap selects: the table lights the choice on the board; it never takes it, even lit
async function tapChoice(i) {
  const menu = myMenu(view.public, view.you, view.private);
  if (!menu) return;
  picked = { key: menuKey(menu, view.public), index: i };
  for (const b of $("options").children) b.setAttribute("aria-selected", b.dataset.index === String(i) ? "true" : "false");
  text($("confirm"), "Choose " + (menu.options[i] || ""));
  if (!(await command("cursor", { index: i, board: view.public.board }, "choices-said"))) {
    picked = null;
    render(view);
  }
}

// Choose: exactly the choice lit on this page (the bot's move: its one choice)
async function choose() {
  const menu = myMenu(view.public, view.you, view.private);
  if (!menu) return;
  const selected = [...$("options").children].find((b) => b.getAttribute("aria-selected") === "true");
  let index = selected ? Number(selected.dataset.index) : menu.index;
  if (menu.kind === "bot") index = 0;
  await command("choose", { index: index, board: view.public.board }, "choices-said");
}

function renderControls(pub, you) {
  $("controls").hidden = !you.paired;
  const idle = !pub.in_game && !pub.seating && !pub.menu;
  $("undo").disabled = !pub.in_game || pub.over || pub.paused;
  $("pause").disabled = !pub.in_game || pub.over;
  text($("pause"), pub.paused ? "Resume" : "Pause");
  $("join").hidden = !pub.seating;
  text($("join"), pub.joined && pub.joined.includes(you.seat) ? "Leave" : "Join");
  $("start").hidden = !(pub.seating || idle);
  renderBots(pub);
  $("new").hidden = !pub.in_game;
}

// a bot at any free seat, or off again: the seats a person has not joined
function renderBots(pub) {
  const row = $("bots");
  row.hidden = !pub.seating || !pub.seat_order;
  if (row.hidden) { row.replaceChildren(); return; }
  const bots = pub.bots || [];
  row.replaceChildren(...pub.seat_order.map((seat, index) => {
    if ((pub.joined || []).includes(seat) && !bots.includes(seat)) return null;
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.seat = seat;
    text(b, bots.includes(seat) ? "No bot at seat " + seat : "Bot at seat " + seat);
    b.addEventListener("click", () => command("bot", { index: index }));
    return b;
  }).filter((b) => b));
}

function renderScores(pub) {
  const body = $("scores").tBodies[0];
  body.replaceChildren(...pub.scores.map((s) => {
    const tr = document.createElement("tr");
    const name = document.createElement("td");
    const score = document.createElement("td");
    score.className = "score";
    text(name, s.name);
    text(score, s.score);
    tr.append(name, score);
    return tr;
  }));
  if (!pub.scores.length) body.append(li("Scores are shown when the rules make them public."));
  $("result").replaceChildren(...pub.result.map(li));
}

// --- settings: the form is built from GET /api/settings, so the page offers what the
// config file's schema allows; the server checks every change as `tavola run` would
let settingsFor = null; // whether the form was built for a paired phone
let shown = {}; // key -> the setting as last loaded; Save sends what differs from it
const GROUPS = { game: "Game", lights: "Lights", players: "Players" };

function pairedChanged(paired) {
  settingsFor = paired;
  $("settings").hidden = true;
  $("settings-fields").replaceChildren();
  text($("settings-said"), "");
  text($("settings-note"), paired ? "Reading the settings…" : "Pairing is needed to change the settings: pair this phone with your seat.");
  if (paired) loadSettings();
  componentsFor(paired);
}

async function loadSettings() {
  const [status, answer] = await send("/api/settings");
  if (status !== 200 || answer.error) {
    text($("settings-note"), answer.error);
    return;
  }
  shown = {};
  const sets = {};
  const others = el("details");
  others.append(el("summary", "Options of the other games"));
  for (const s of answer.settings) {
    shown[s.key] = s;
    if (!sets[s.group]) {
      sets[s.group] = el("fieldset");
      sets[s.group].append(el("legend", GROUPS[s.group] || s.group));
    }
    (s.applies === false ? others : sets[s.group]).append(settingRow(s));
  }
  if (others.children.length > 1) (sets.game || $("settings-fields")).append(others);
  $("settings-fields").replaceChildren(...Object.values(sets));
  text($("settings-note"), "Changes are written to " + answer.file + "; the old file is kept as " + answer.file + ".bak.");
  $("settings").hidden = false;
}

function el(tag, words) { const e = document.createElement(tag); if (words != null) text(e, words); return e; }

function settingRow(s) {
  const id = "set-" + s.key.replace(/\./g, "-");
  const label = el("label", s.label.charAt(0).toUpperCase() + s.label.slice(1));
  label.htmlFor = id;
  let input;
  if (s.kind === "choice") {
    input = el("select");
    s.choices.forEach((c, i) => {
      const o = el("option", c.label + (c.value === s.default ? " (default)" : ""));
      o.value = String(i);
      input.append(o);
    });
    input.value = String(Math.max(0, s.choices.findIndex((c) => c.value === s.value)));
  } else {
    input = el("input");
    if (s.kind === "number") {
      input.type = "number";
      input.step = "any";
      input.inputMode = "decimal";
      if (s.min != null || s.above != null) input.min = String(s.min != null ? s.min : s.above);
      if (s.max != null) input.max = String(s.max);
      input.placeholder = s.default == null ? "none" : String(s.default);
    } else if (s.kind === "name") {
      input.type = "text";
      input.maxLength = s.longest;
      input.autocomplete = "off";
      input.placeholder = s.label.toLowerCase();
    } else {
      input.type = "color";
    }
    input.value = s.value == null ? "" : String(s.value);
  }
  input.id = id;
  input.dataset.key = s.key;
  input.addEventListener("input", () => input.removeAttribute("aria-invalid"));
  const row = el("div");
  row.className = "setting";
  row.append(label, input, el("p", s.help + (s.takes_effect === "restart" ? " (after a restart)" : "")));
  return row;
}

// the value a control stands for, as the config file would have it
function valueOf(s, input) {
  if (s.kind === "choice") return s.choices[Number(input.value)].value;
  const typed = input.value.trim();
  if (s.kind === "number") return typed === "" ? null : Number(typed);
  return typed === "" ? null : typed;
}

function labels(keys) { return keys.map((k) => shown[k] ? shown[k].label : k).join(", "); }

async function saveSettings() {
  const said = $("settings-said");
  said.className = "";
  const changes = {};
  for (const input of $("settings-fields").querySelectorAll("[data-key]")) {
    const s = shown[input.dataset.key];
    input.removeAttribute("aria-invalid");
    if (input.validity && input.validity.badInput) {
      input.setAttribute("aria-invalid", "true");
      text(said, s.label + ": not a number.");
      input.focus();
      return;
    }
    const value = valueOf(s, input);
    if (value !== s.value) changes[s.key] = value;
  }
  if (!Object.keys(changes).length) {
    text(said, "Nothing to save: no setting was changed.");
    return;
  }
  $("settings-save").disabled = true;
  const [status, answer] = await send("/api/settings", changes);
  $("settings-save").disabled = false;
  if (status === 409) { // the file changed meanwhile: show it as it is now, never undo that
    await loadSettings();
    text(said, answer.error + " The form now shows the file as it is; change it again.");
    return;
  }
  if (status !== 200) {
    text(said, answer.error); // the server's own words; the form keeps what was typed
    const bad = answer.key && $("settings-fields").querySelector('[data-key="' + answer.key + '"]');
    if (bad) { bad.setAttribute("aria-invalid", "true"); bad.focus(); }
    return;
  }
  let words = answer.changed.length ? "Saved: " + labels(answer.changed) + "." : "Nothing changed.";
  if (answer.now.length) {
    words += answer.reloaded ? " Took effect now: " + labels(answer.now) + "."
      : " Takes effect when the table reloads its settings: " + labels(answer.now) + ".";
  }
  if (answer.restart.length) words += " Needs a restart of the table: " + labels(answer.restart) + ".";
  await loadSettings();
  said.className = "ok";
  text(said, words);
}

// --- the component check: every provisional value of each game, its question in words
// and the shipped guess; "Matches my copy" or the value as the file writes it
// (GET/POST /api/components). The server reads and checks every answer.
const LONG = 160; // characters of a value shown folded

function componentsFor(paired) {
  $("components").hidden = true;
  $("components").replaceChildren();
  text($("components-note"), paired ? "Reading the components…" : "Pairing is needed to check the components: pair this phone with your seat.");
  if (paired) loadComponents();
}

async function loadComponents(said) {
  const [status, answer] = await send("/api/components");
  if (status !== 200) { text($("components-note"), answer.error); return; }
  const open = {}; // the folds the owner opened stay open
  for (const d of $("components").querySelectorAll("details[open]")) open[d.dataset.game] = true;
  $("components").replaceChildren(...answer.games.map((g) => componentGame(g, open[g.game])));
  text($("components-note"), "Each value the shipped data only guesses, asked with the component in hand: open a game. Answers are written to each game's own file (the old one kept as .bak) and apply from the next game.");
  $("components").hidden = false;
  if (said) { const p = $("components-said-" + said.game); if (p) { p.className = "said ok"; text(p, said.words); } }
}

function componentGame(g, open) {
  const box = el("details");
  box.dataset.game = g.game;
  box.id = "components-" + g.game;
  if (open) box.open = true;
  const left = g.questions.length;
  box.append(el("summary", g.title + ": " + (g.error ? "the file is refused" : left ? left + " to check" : "all checked")));
  const said = el("p");
  said.id = "components-said-" + g.game;
  said.className = "said";
  said.setAttribute("role", "status");
  if (g.error) { text(said, g.error); box.append(said); return box; }
  box.append(el("p", "File: " + g.file), said);
  if (left) box.append(el("h3", "Still guesses"));
  for (const q of g.questions) box.append(componentRow(g, q, false));
  if (g.owner.length) box.append(el("h3", "Your copy"));
  for (const q of g.owner) box.append(componentRow(g, q, true));
  return box;
}

function componentRow(g, q, mine) {
  const id = "check-" + g.game + "-" + q.group + "-" + q.key;
  const row = el("div");
  row.className = "setting component";
  row.dataset.group = q.group;
  row.dataset.key = q.key;
  row.dataset.state = mine ? "checked" : "guess";
  const label = el("label", q.text);
  label.htmlFor = id;
  const words = mine ? (q.checked ? "Checked against your copy: " : "Written by hand: ") + q.value
    + (q.guess !== q.value ? " (shipped guess: " + q.guess + ")" : "") : "Shipped guess: " + q.value;
  let now = el("p", words);
  if (words.length > LONG) { // a whole deck: folded, so the other questions stay in reach
    now = el("details");
    now.append(el("summary", (mine ? "Your copy's value" : "Shipped guess") + " (" + q.value.length + " characters)"), el("p", words));
  }
  now.className = "value";
  const input = el("input");
  input.id = id;
  input.type = "text";
  input.autocomplete = "off";
  input.spellcheck = false;
  input.placeholder = q.value.length > 40 ? "what your copy shows, as the file writes it" : mine ? q.value : "what your copy shows, e.g. " + q.value;
  input.addEventListener("input", () => input.removeAttribute("aria-invalid"));
  const why = el("p");
  why.className = "said";
  why.setAttribute("role", "alert");
  const buttons = el("div");
  buttons.className = "row";
  const typed = el("button", mine ? "Save this value" : "Save my copy's value");
  typed.type = "button";
  typed.addEventListener("click", () => {
    if (!input.value.trim()) { input.setAttribute("aria-invalid", "true"); text(why, "Type the value your copy shows, as the file writes it (" + q.value + ")."); return; }
    answerComponent(g, q, { answer: input.value }, input, why);
  });
  if (!mine) {
    const same = el("button", "Matches my copy");
    same.type = "button";
    same.className = "primary";
    same.addEventListener("click", () => answerComponent(g, q, { matches: true }, input, why));
    buttons.append(same);
  }
  buttons.append(typed);
  const item = el("p", q.label);
  item.className = "hint";
  row.append(label, item, now, input, buttons, why);
  return row;
}

async function answerComponent(g, q, answer, input, why) {
  text(why, "");
  const body = { game: g.game, answers: [Object.assign({ group: q.group, key: q.key }, answer)] };
  const [status, reply] = await send("/api/components", body);
  if (status !== 200) {
    text(why, reply.error); // the server's own sentence, by the field; the input keeps what was typed
    input.setAttribute("aria-invalid", "true");
    if (status === 409) await loadComponents();
    return;
  }
  await loadComponents({ game: g.game, words: reply.said });
}

// --- live updates -----------------------------------------------------------------------
let source = null;

function connect() {
  // reconnects by itself, with Last-Event-ID; opened again when this phone's cookie
  // changes (a stream carries the cookie it was opened with)
  if (source) source.close();
  source = new EventSource("/api/events");
  source.onmessage = (e) => { render(JSON.parse(e.data)); };
  source.onopen = () => { if (view) say(""); };
  source.onerror = () => { text($("status"), "Connection lost; reconnecting…"); };
}

// --- buttons ------------------------------------------------------------------------------
async function askToPair(body) {
  // {} pairs with the seat whose select is held, once it confirms the code; {seat} asks to
  // play a seat without buttons
  const answer = await post("/api/pair", body);
  if (!answer) return;
  connect(); // the stream now carries this phone's new cookie
  const code = $("code");
  code.hidden = false;
  text(code, answer.code);
  let left = answer.seconds;
  clearInterval(countdown);
  say(answer.say, true);
  countdown = setInterval(() => {
    left -= 1;
    if (left <= 0 || (view && view.you.paired)) { clearInterval(countdown); say(view && view.you.paired ? "Paired." : "The pairing window closed; ask again.", view && view.you.paired); }
  }, 1000);
}

function wire() {
  $("pair").addEventListener("click", () => askToPair({}));
  $("unpair").addEventListener("click", async () => {
    if (await post("/api/unpair", {})) connect();
  });
  $("confirm").addEventListener("click", choose);
  $("go-on").addEventListener("click", () => command("go_on", {}, "choices-said"));
  $("back").addEventListener("click", () => command("back", {}, "choices-said"));
  $("undo").addEventListener("click", () => command("undo"));
  $("pause").addEventListener("click", () => command("pause"));
  $("join").addEventListener("click", () => command("join"));
  $("start").addEventListener("click", () => command("start"));
  $("new").addEventListener("click", () => {
    if (confirm("End this game without scoring it and choose a new one?")) command("new");
  });
  $("history-load").addEventListener("click", loadHistory);
  $("settings").addEventListener("submit", (e) => { e.preventDefault(); saveSettings(); });
}

async function loadHistory() {
  const list = $("history");
  let answer;
  try { answer = await (await fetch("/api/history")).json(); } catch (e) { say("The history cannot be read."); return; }
  if (answer.error) { say(answer.error); return; }
  list.replaceChildren(...answer.games.map((g) => {
    const item = document.createElement("li");
    const show = document.createElement("button");
    show.type = "button";
    text(show, "#" + g.id + " " + g.title + ", " + g.started.replace("T", " "));
    show.addEventListener("click", () => showGame(g.id));
    const link = document.createElement("a");
    link.href = "/api/history/" + g.id + "/export";
    link.setAttribute("download", "tavola-game-" + g.id + ".json");
    text(link, "export for tavola replay");
    const result = document.createElement("div");
    text(result, g.result);
    item.append(show, result, link);
    return item;
  }));
  if (!answer.games.length) list.append(li("No finished games yet."));
}

async function showGame(id) {
  const pre = $("history-game");
  const answer = await (await fetch("/api/history/" + id)).json();
  if (answer.error) { say(answer.error); return; }
  pre.hidden = false;
  text(pre, answer.title + " #" + answer.id + "\n" + answer.lines.join("\n"));
}

wire();
connect();
