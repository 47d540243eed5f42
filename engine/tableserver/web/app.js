// The players' web client: it speaks the protocol of docs/protocol.md over the table's WebSocket
// and draws what the server sends. It holds no game logic: what is legal, the amounts and the
// cards all come from the server, so the page shows only what this connection may see.

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const token = params.get("token") || "";
const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const RANKS = { T: "10" };

let ws, view = null, me = { seat: -1, role: "" }, clock = null, hole = [];

function send(type, data) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ v: 1, type, data }));
}

function cardEl(name, small) {
  const el = document.createElement("div");
  el.className = "card" + (small ? " small" : "");
  if (!name) { el.classList.add("back"); return el; }
  const r = name[0], s = name[1];
  el.dataset.card = name;
  el.classList.add("face");
  if (s === "h" || s === "d") el.classList.add("red");
  el.innerHTML = `<span class="rank">${RANKS[r] || r}</span><span class="suit">${SUITS[s]}</span>`;
  return el;
}

// toast pops a message up for a few seconds: an error in red, a notice ("notice") quieter and
// shorter.
function toast(text, kind = "") {
  const t = $("toast");
  t.textContent = text;
  t.className = kind;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, kind === "notice" ? 2500 : 5000);
}

// A click that reaches the table after the hand or the turn has moved on (a bot acted first, the
// clock ran out) is no mistake of the player's: the page says so quietly.
const LATE = {
  wrong_hand: "Too late: that hand is over.",
  no_hand: "Too late: that hand is over.",
  not_your_turn: "Too late: your turn has passed.",
};

// Seat positions around the oval, the viewer at the bottom.
function seatPos(i, n, viewer) {
  const k = ((i - Math.max(viewer, 0)) % n + n) % n;
  const a = Math.PI / 2 + (2 * Math.PI * k) / n;
  return { x: 440 + 395 * Math.cos(a), y: 240 + 200 * Math.sin(a), bx: 440 + 265 * Math.cos(a), by: 240 + 118 * Math.sin(a) };
}

function chips(n) { return n.toLocaleString("en-US"); }

function render() {
  if (!view) return;
  document.body.dataset.phase = view.phase;
  $("table-name").textContent = `table ${view.table} · hand ${view.hand}`;
  $("level").textContent = `blinds ${chips(view.level.smallBlind)}/${chips(view.level.bigBlind)}` + (view.level.ante ? ` ante ${chips(view.level.ante)}` : "");
  $("pot").textContent = view.pot ? `Pot ${chips(view.pot)}` : "";
  const pots = view.pots || [];
  $("side-pots").textContent = pots.length > 1 ? pots.map((p, i) => `${i ? "side" : "main"} ${chips(p.amount)}`).join(" · ") : "";
  const board = $("board");
  board.replaceChildren(...view.board.map((c) => cardEl(c)));
  board.dataset.cards = view.board.join(" ");

  const seats = $("seats");
  seats.replaceChildren();
  const n = view.seats.length;
  for (const s of view.seats) {
    const p = seatPos(s.seat, n, view.viewer);
    const el = document.createElement("div");
    el.className = "seat";
    el.dataset.seat = s.seat;
    el.style.left = p.x + "px"; el.style.top = p.y + "px";
    if (!s.occupied) { el.classList.add("empty"); el.innerHTML = `<div class="plate">empty</div>`; seats.append(el); continue; }
    if (s.folded) el.classList.add("folded");
    if (!s.connected) el.classList.add("away");
    if (s.seat === view.viewer) el.classList.add("me");
    if (s.seat === view.toAct) el.classList.add("to-act");
    const cards = document.createElement("div");
    cards.className = "cards";
    if (s.dealt && (s.inHand || s.shown)) {
      if (s.cards) for (const c of s.cards) cards.append(cardEl(c, true));
      else cards.append(cardEl(null, true), cardEl(null, true));
    }
    const plate = document.createElement("div");
    plate.className = "plate";
    const state = s.allIn ? "ALL-IN" : s.folded && s.dealt ? "folded" : s.state !== "active" ? s.state : !s.connected ? "away" : "";
    plate.innerHTML = `<div class="name"></div><div class="stack">${chips(s.stack)}</div><div class="state">${state}</div><div class="timer"><div></div></div>`;
    plate.querySelector(".name").textContent = s.player;
    el.append(cards, plate);
    seats.append(el);
    if (s.bet > 0) {
      const b = document.createElement("div");
      b.className = "bet"; b.textContent = chips(s.bet);
      b.style.left = p.bx + "px"; b.style.top = p.by + "px";
      seats.append(b);
    }
    if (s.seat === view.button) {
      const d = document.createElement("div");
      d.className = "dealer"; d.textContent = "D";
      d.style.left = (p.bx + 38) + "px"; d.style.top = (p.by - 22) + "px";
      seats.append(d);
    }
  }
  renderActions();
  renderClock();
}

let adviseKey = "";

function renderActions() {
  if (me.role !== "player") return;
  // An advance action holds only against the bet it was queued against (rule A14): the server
  // drops it when the bet changes, and so does the page.
  const key = `${view.hand}/${view.round}/${view.currentBet}`;
  if (key !== adviseKey) { adviseKey = key; for (const b of document.querySelectorAll("#advance input")) b.checked = false; }
  const mine = view.seats[me.seat];
  const cards = (mine && mine.cards) || (view.hand === hole.hand ? hole.cards : null);
  $("my-cards").replaceChildren(...(cards && mine && mine.dealt ? cards.map((c) => cardEl(c)) : []));
  const l = view.legal, myTurn = l && view.toAct === view.viewer;
  // An advance action is for before the turn: on his turn he acts.
  for (const b of document.querySelectorAll("#advance input")) b.disabled = myTurn;
  $("fold-btn").disabled = !myTurn || !l.fold;
  const call = $("call-btn");
  call.disabled = !myTurn || !(l.check || l.call);
  call.textContent = myTurn && l.call ? `Call ${chips(l.callAmount)}` : "Check";
  call.dataset.action = myTurn && l.call ? "call" : "check";
  const canRaise = myTurn && (l.bet || l.raise);
  const slider = $("raise-slider"), amount = $("raise-amount"), btn = $("raise-btn");
  for (const el of [slider, amount, btn, ...document.querySelectorAll("#raise-presets button")]) el.disabled = !canRaise;
  if (canRaise) {
    if (slider.dataset.turn !== `${view.hand}/${view.round}/${view.currentBet}`) {
      slider.dataset.turn = `${view.hand}/${view.round}/${view.currentBet}`;
      slider.min = l.minTo; slider.max = l.maxTo; slider.step = Math.max(1, Math.floor(view.level.bigBlind / 2));
      slider.value = l.minTo; amount.value = l.minTo;
    }
    $("raise-min").textContent = `min ${chips(l.minTo)}`;
    $("raise-max").textContent = `max ${chips(l.maxTo)}`;
    btn.textContent = `${l.bet ? "Bet" : "Raise to"} ${chips(Number(amount.value))}`;
    btn.dataset.action = l.bet ? "bet" : "raise";
  } else {
    $("raise-min").textContent = ""; $("raise-max").textContent = "";
    btn.textContent = "Raise";
  }
  for (const box of document.querySelectorAll("#advance input")) box.disabled = myTurn || view.phase !== "betting" || !mine || !mine.inHand;
}

function renderClock() {
  const el = $("clock"), bar = $("clock-bar"), text = $("clock-text");
  for (const s of document.querySelectorAll(".seat .timer div")) s.style.width = "0";
  if (!clock || !view || view.phase !== "betting" || clock.hand !== view.hand) { bar.style.width = "0"; text.textContent = ""; return; }
  const left = Math.max(0, clock.until - Date.now());
  const frac = clock.total ? left / clock.total : 0;
  el.className = clock.phase;
  const label = { think: "", bank: "time bank ", countdown: "countdown ", grace: "reconnecting… " }[clock.phase] || "";
  const who = view.seats[clock.seat];
  text.textContent = `${who ? who.player : ""} ${label}${Math.ceil(left / 1000)}s` + (clock.bankMs ? ` · bank ${Math.round(clock.bankMs / 1000)}s` : "");
  bar.style.width = clock.seat === view.viewer ? `${frac * 100}%` : "0";
  const seatTimer = document.querySelector(`.seat[data-seat="${clock.seat}"] .timer div`);
  if (seatTimer) seatTimer.style.width = `${frac * 100}%`;
}

function onResult(r) {
  const box = $("result");
  box.hidden = false;
  box.textContent = r.summary;
  box.dataset.hand = r.hand;
  box.dataset.shown = r.shown.map((s) => `${s.player}:${s.cards.join("")}`).join(" ");
  // The showdowns seen, for a person scrolling back and for the browser test.
  document.body.dataset.showdowns = ((document.body.dataset.showdowns || "") + ` ${r.hand}=${box.dataset.shown}`).trim();
  const li = document.createElement("li");
  li.textContent = r.summary;
  $("history").prepend(li);
  while ($("history").children.length > 20) $("history").lastChild.remove();
  if (r.deal) $("fair").textContent = `hand ${r.hand} deal: seed ${r.deal.serverSeed.slice(0, 16)}… matches commitment ${r.deal.commitment.slice(0, 16)}… (check with pokerfloor verify-deal)`;
}

function onMessage(ev) {
  let m;
  try { m = JSON.parse(ev.data); } catch { toast("The table sent a frame this page cannot read."); return; }
  const d = m.data || {};
  switch (m.type) {
    case "welcome":
      me = { seat: d.seat, role: d.role, player: d.player };
      $("status").textContent = d.role === "player" ? `${d.player} · seat ${d.seat + 1}` : "spectator";
      $("actions").hidden = d.role !== "player";
      $("spectating").hidden = d.role === "player";
      $("chat-form").hidden = d.role !== "player";
      break;
    case "view":
      if (view && d.hand !== view.hand) $("result").hidden = true;
      view = d; render(); break;
    case "hole": hole = d; render(); break;
    case "clock":
      clock = { ...d, until: Date.now() + d.remainingMs, total: d.remainingMs };
      renderClock(); break;
    case "result": onResult(d); break;
    case "commit": $("fair").textContent = `next deal committed: ${d.commitment.slice(0, 24)}…`; break;
    case "chat": {
      const line = document.createElement("div");
      const who = document.createElement("b"); who.textContent = d.from + ": ";
      line.append(who, document.createTextNode(d.text));
      $("chat-log").append(line); $("chat-log").scrollTop = 1e9; break;
    }
    case "error":
      if (LATE[d.code] && !d.fatal) { toast(LATE[d.code], "notice"); break; }
      if (d.code === "bad_action" && d.rule === "A14") {
        // An advance action ticked as his turn came: it is not queued (A14), and he acts now.
        for (const b of document.querySelectorAll("#advance input")) b.checked = false;
        toast("Your turn came first: act now.", "notice");
        break;
      }
      toast(d.message + (d.fatal ? " (disconnected)" : ""));
      if (d.fatal) refused = true;
      break;
    case "move":
      // Each table serves its own page beside its socket (…/ws): the page of the new table is the
      // socket's address with http for ws and without the ws.
      moved = true;
      toast(`You are moved to table ${d.table}: following…`, "notice");
      location.href = d.url.replace(/^ws/, "http").replace(/ws$/, "") + `?token=${encodeURIComponent(d.token)}`;
      break;
    case "closing":
      toast(d.reason);
      // A table closed for good leaves a spectator nothing to join again (a player joins once more:
      // the table tells him where he was moved).
      if (d.final && me && me.role !== "player") ended = true;
      break;
  }
}

// The socket is beside the page (…/table/7/ws for the page …/table/7/), unless ?ws= names it.
let moved = false, refused = false, ended = false, retry = 500;

function connect() {
  const url = params.get("ws") || new URL("ws", location.href).href.replace(/^http/, "ws");
  ws = new WebSocket(url);
  ws.onopen = () => { $("status").textContent = "joining…"; send("join", { token }); };
  ws.onmessage = (e) => { retry = 500; onMessage(e); };
  ws.onclose = (e) => {
    $("status").textContent = `disconnected${e.reason ? ": " + e.reason : ""}`;
    document.body.dataset.phase = "closed";
    if (ended) { $("status").textContent = "table closed"; return; } // the reason was toasted
    // A table that went away (restarting, closed while its players are moved, or drawing a new
    // seat: 1013) is joined again; a refused join (a bad token, no seat) is final.
    if (moved || refused || e.code === 1000) return;
    $("status").textContent += ": reconnecting…";
    setTimeout(connect, retry);
    retry = Math.min(2 * retry, 5000);
  };
}

function act(action, to) {
  if (!view) return;
  send("action", { hand: view.hand, action, to: to || 0 });
}

$("fold-btn").onclick = () => act("fold");
$("call-btn").onclick = (e) => act(e.target.dataset.action);
$("raise-btn").onclick = (e) => act(Number($("raise-amount").value) >= Number($("raise-slider").max) ? "allin" : e.target.dataset.action, Number($("raise-amount").value));
$("raise-slider").oninput = (e) => { $("raise-amount").value = e.target.value; renderActions(); };
$("raise-amount").oninput = (e) => { $("raise-slider").value = e.target.value; renderActions(); };
for (const b of document.querySelectorAll("#raise-presets button")) {
  b.onclick = () => {
    const l = view && view.legal; if (!l) return;
    const f = b.dataset.frac;
    let to = f === "all" ? l.maxTo : Math.round(view.currentBet + (view.pot + view.toCall) * Number(f));
    to = Math.min(l.maxTo, Math.max(l.minTo, to));
    $("raise-slider").value = to; $("raise-amount").value = to; renderActions();
  };
}
for (const box of document.querySelectorAll("#advance input")) {
  box.onchange = () => {
    for (const other of document.querySelectorAll("#advance input")) if (other !== box) other.checked = false;
    send("advance", { hand: view ? view.hand : 0, advance: box.checked ? box.dataset.adv : "" });
  };
}
$("chat-form").onsubmit = (e) => {
  e.preventDefault();
  const t = $("chat-input").value.trim();
  if (t) send("chat", { text: t });
  $("chat-input").value = "";
};
setInterval(renderClock, 250);
if (!token) toast("No token in the address: open the link your tournament gave you (…/?token=…).");
connect();
