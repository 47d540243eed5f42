// The clock and lobby page: it draws each board the server pushes (server-sent events, "board")
// and counts the clock down between two boards. It holds no tournament logic: every figure comes
// from the board.

const $ = (id) => document.getElementById(id);
const chips = (n) => Number(n || 0).toLocaleString("en-US");
const money = (cents) => {
  const c = Number(cents || 0), d = c % 100 === 0 ? 0 : 2;
  return "$" + (c / 100).toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
};

let board = null, received = 0, lastOut = "";

function clockText(ms) {
  if (ms <= 0) return "00:00";
  const s = Math.ceil(ms / 1000), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const mm = String(m).padStart(2, "0"), ss = String(sec).padStart(2, "0");
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

function blindsText(b) { return `${chips(b.small)} / ${chips(b.big)}`; }

// elapsed is the time since the board arrived, unless the clock is stopped.
function elapsed() {
  return board && !board.paused && !board.finished ? Date.now() - received : 0;
}

function tick() {
  if (!board) return;
  const cd = $("countdown");
  if (board.finished) {
    cd.textContent = "FINAL";
  } else if (board.nextLevelMs > 0) {
    const left = board.nextLevelMs - elapsed();
    cd.textContent = clockText(left);
    // The last minute of a level (the last tenth of a compressed one) shows in gold.
    cd.classList.toggle("soon", !board.onBreak && left < Math.min(60000, (board.periodMs || 0) / 10));
  } else {
    cd.textContent = "--:--";
  }
  $("clock-note").hidden = !board.simulation || board.finished;
  const nb = $("next-break");
  if (board.nextBreakMs > 0) nb.textContent = "in " + clockText(board.nextBreakMs - elapsed());
  else nb.textContent = board.simulation ? "none (levels go by hands)" : "none";
}

function row(cells, cls) {
  const tr = document.createElement("tr");
  if (cls) tr.className = cls;
  for (const [text, c] of cells) {
    const td = document.createElement("td");
    td.textContent = text;
    if (c) td.className = c;
    tr.appendChild(td);
  }
  return tr;
}

function render(b) {
  const state = b.finished ? "finished" : b.paused ? "paused" : b.onBreak ? "break" : "live";
  document.body.dataset.state = state;
  document.body.dataset.level = b.level;
  document.body.dataset.left = b.playersLeft;
  $("name").textContent = b.name || "Tournament";
  $("state").textContent = b.finished ? "Finished" : b.paused ? "Paused" : b.onBreak ? "Break" : b.handForHand ? "Hand for hand" : "Live";
  $("stale").hidden = !b.stale;
  $("stale").textContent = b.stale ? "not updating: " + b.stale : "";
  $("level-label").textContent = b.onBreak ? "BREAK · THEN LEVEL" : "LEVEL";
  $("level").textContent = b.level;
  $("blinds-sb-bb").textContent = blindsText(b.blinds);
  $("ante").textContent = b.blinds.ante ? `ante ${chips(b.blinds.ante)}` : "";
  const next = (b.upcoming || []).find((p) => !p.break);
  $("next-level").textContent = next ? `${blindsText(next.blinds)}${next.blinds.ante ? " · " + chips(next.blinds.ante) : ""}` : "last level";

  $("players-left").textContent = chips(b.playersLeft);
  $("entries").textContent = chips(b.entries);
  $("average").textContent = chips(b.averageStack);
  $("chips").textContent = chips(b.chipsInPlay);
  $("pool").textContent = money(b.prizePool);
  $("tables-count").textContent = chips(b.tables);
  $("hands").textContent = chips(b.handsPlayed);

  $("upcoming").tBodies[0].replaceChildren(...(b.upcoming || []).map((p) => p.break
    ? row([["Break", ""], [p.colorUp ? "colour up " + p.colorUp.map(chips).join(", ") : "", ""], ["", ""], [p.minutes, "num"]], "break")
    : row([[p.level, ""], [blindsText(p.blinds), ""], [p.blinds.ante ? chips(p.blinds.ante) : "–", ""], [p.minutes, "num"]])));

  $("paid").textContent = b.paid ? `· ${b.paid} paid` : "";
  $("payouts").tBodies[0].replaceChildren(...(b.payouts || []).map((p) =>
    row([[p.places.includes("-") ? p.places.replace("-", "–") : ordinal(p.places), ""], [p.player || "", "player"], [money(p.prize), "prize"]])));

  const outKey = (b.eliminations || []).map((e) => e.player).join(",");
  $("eliminations").replaceChildren(...(b.eliminations || []).map((e, i) => {
    const li = document.createElement("li");
    if (lastOut && outKey !== lastOut && i === 0) li.className = "fresh";
    li.innerHTML = `<span class="place"></span><span class="who"></span><span class="prize"></span>`;
    li.children[0].textContent = ordinal(String(e.place));
    li.children[1].textContent = e.player;
    li.children[2].textContent = e.prize ? money(e.prize) : "";
    return li;
  }));
  if (!b.eliminations || !b.eliminations.length) {
    const li = document.createElement("li");
    li.textContent = "nobody yet";
    li.className = "muted";
    $("eliminations").replaceChildren(li);
  }
  lastOut = outKey;

  $("more-tables").textContent = b.moreTables ? `· and ${chips(b.moreTables)} more` : "";
  $("tables").replaceChildren(...(b.tableList || []).map(tableCard));
  tick();
}

function ordinal(s) {
  const n = Number(s);
  if (!Number.isInteger(n)) return s;
  const t = n % 100, u = n % 10;
  const suf = t >= 11 && t <= 13 ? "th" : u === 1 ? "st" : u === 2 ? "nd" : u === 3 ? "rd" : "th";
  return n + suf;
}

function tableCard(t) {
  const el = document.createElement("div");
  el.className = "tcard " + (t.flags || []).join(" ");
  el.dataset.table = t.number;
  const head = document.createElement("div");
  head.className = "thead";
  head.innerHTML = `<span class="tname"></span><span class="hand"></span>`;
  head.children[0].textContent = `Table ${t.number}`;
  head.children[1].textContent = `hand ${t.hand}` + ((t.flags || []).length ? " · " + t.flags.join(", ") : "");
  if (t.watch) {
    const a = document.createElement("a");
    a.className = "watch";
    a.href = t.watch;
    a.target = "_blank";
    a.textContent = "Watch ▸";
    head.appendChild(a);
  }
  el.appendChild(head);
  for (const s of t.seats) {
    const d = document.createElement("div");
    d.className = "seat";
    d.innerHTML = `<span class="sn"></span><span class="pl"></span><span class="st"></span>`;
    d.children[0].textContent = s.seat;
    d.children[1].textContent = s.player;
    d.children[2].textContent = chips(s.stack);
    el.appendChild(d);
  }
  return el;
}

function setTV(on) {
  document.body.classList.toggle("tv", on);
  $("tv-btn").textContent = on ? "Exit full screen" : "Full screen";
  const url = new URL(location.href);
  if (on) url.searchParams.set("tv", "1"); else url.searchParams.delete("tv");
  history.replaceState(null, "", url);
}

function toggleTV() {
  const on = !document.body.classList.contains("tv");
  setTV(on);
  if (on && document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(() => {});
  if (!on && document.fullscreenElement) document.exitFullscreen().catch(() => {});
}

$("tv-btn").addEventListener("click", toggleTV);
document.addEventListener("keydown", (e) => { if (e.key === "f" || e.key === "F") toggleTV(); });
document.addEventListener("fullscreenchange", () => { if (!document.fullscreenElement) setTV(false); });
if (new URLSearchParams(location.search).has("tv")) setTV(true);

function connect() {
  const es = new EventSource("events");
  es.addEventListener("board", (e) => {
    board = JSON.parse(e.data);
    received = Date.now();
    render(board);
  });
  es.onerror = () => {
    if (board && !board.finished) $("state").textContent = "reconnecting…";
  };
}
connect();
setInterval(tick, 250);
