// The page of `connect serve`: the game in the browser, every column's
// score from /api/analyze, the computer's moves from /api/move, and the
// four parts on a .cnf game from /api/parts. No framework, no build step.
//
// The page keeps the moves itself (rows, columns, players, moves, and the
// moves undone for redo) and draws the board from them; the server checks
// every position it is sent and answers a bad one with 400. The position
// is in the address (?rows=6&cols=7&players=2&pos=4453, columns from 1),
// kept up to date with history.replaceState. For scripts and tests each
// column's element has data-col (from 1) and data-score (empty until the
// analysis of the position shown arrives), and <body data-pos> is the
// position those scores are of.
"use strict";

const $ = (id) => document.getElementById(id);

/** A token per page, so the server gives up this page's stale searches. */
const TAB = Math.random().toString(36).slice(2, 12);

const TOKENS = "123456789abcdefghijklmnopqrstuvwxyz";

const state = {
  rows: 6,
  cols: 7,
  players: 2,
  /** 0-based columns played. */
  moves: [],
  /** Moves undone, the next to redo last. */
  undone: [],
  /** Players (1-based) the computer plays. */
  computer: new Set(),
  level: "perfect",
  showScores: localStorage.getItem("connect-scores") !== "off",
};

/** The board after the moves: cells[row][col], row 0 at the top, 0 empty. */
function replay(moves) {
  const cells = Array.from({ length: state.rows }, () => new Array(state.cols).fill(0));
  const heights = new Array(state.cols).fill(0);
  let winner = 0;
  let last = null;
  moves.forEach((c, i) => {
    const player = (i % state.players) + 1;
    const row = state.rows - 1 - heights[c];
    cells[row][c] = player;
    heights[c] += 1;
    last = [row, c];
    if (fourThrough(cells, row, c)) winner = player;
  });
  return { cells, heights, winner, last };
}

/** Whether the piece at (row, col) is in four in a row. */
function fourThrough(cells, row, col) {
  const p = cells[row][col];
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
    let n = 1;
    for (const s of [1, -1]) {
      let r = row + s * dr;
      let c = col + s * dc;
      while (r >= 0 && r < state.rows && c >= 0 && c < state.cols && cells[r][c] === p) {
        n += 1;
        r += s * dr;
        c += s * dc;
      }
    }
    if (n >= 4) return true;
  }
  return false;
}

/** The position as the address writes it. */
function written(moves) {
  const cols = moves.map((c) => String(c + 1));
  return state.cols <= 9 ? cols.join("") : cols.join(",");
}

/** The moves of a written position (null when it is not one). */
function parsePos(text) {
  if (!text) return [];
  const parts = text.includes(",") || state.cols > 9 ? text.split(",") : text.split("");
  const moves = [];
  for (const part of parts) {
    if (!/^[0-9]+$/.test(part)) return null;
    const c = Number(part) - 1;
    if (c < 0 || c >= state.cols) return null;
    moves.push(c);
  }
  return moves;
}

function query(extra) {
  const q = new URLSearchParams({
    rows: state.rows,
    cols: state.cols,
    players: state.players,
    pos: written(state.moves),
    ...extra,
  });
  return q.toString();
}

/** The game's current facts. */
function now() {
  const game = replay(state.moves);
  const full = state.moves.length >= state.rows * state.cols;
  const over = game.winner !== 0 || full;
  const toMove = (state.moves.length % state.players) + 1;
  return { ...game, over, full, toMove };
}

function canPlay(col) {
  const g = now();
  return !g.over && col >= 0 && col < state.cols && g.heights[col] < state.rows;
}

// ---- drawing ----------------------------------------------------------

function disc(player) {
  const d = document.createElement("span");
  d.className = `disc p${((player - 1) % 8) + 1}`;
  d.textContent = TOKENS[player - 1];
  return d;
}

/** Draws `cells` into `board` as columns of cells; returns the column elements. */
function drawCells(board, cells, rows, cols, last) {
  board.replaceChildren();
  board.style.setProperty("--cols", cols);
  board.style.setProperty("--rows", rows);
  const columns = [];
  for (let c = 0; c < cols; c += 1) {
    const col = document.createElement("div");
    col.className = "col";
    col.dataset.col = String(c + 1);
    const label = document.createElement("span");
    label.className = "score";
    col.append(label);
    for (let r = 0; r < rows; r += 1) {
      const cell = document.createElement("span");
      cell.className = "cell";
      const p = cells[r][c];
      if (p) {
        cell.append(disc(p));
        if (last && last[0] === r && last[1] === c) cell.classList.add("last");
      }
      col.append(cell);
    }
    board.append(col);
    columns.push(col);
  }
  return columns;
}

let analysed = null; // { pos, columns, best, note } of the position shown

function draw() {
  const g = now();
  const board = $("board");
  const columns = drawCells(board, g.cells, state.rows, state.cols, g.last);
  columns.forEach((col, c) => {
    col.setAttribute("role", "button");
    col.setAttribute("aria-label", `column ${c + 1}`);
    col.tabIndex = -1;
    if (!canPlay(c)) col.classList.add("closed");
    col.addEventListener("click", () => person(c));
    col.dataset.score = "";
  });
  board.classList.toggle("scores-off", !state.showScores);
  if (g.winner) {
    setStatus(`Player ${TOKENS[g.winner - 1]} wins.`, g.winner);
  } else if (g.full) {
    setStatus("A draw: the board is full.", 0);
  } else {
    const who = state.computer.has(g.toMove) ? " (the computer)" : "";
    setStatus(`Player ${TOKENS[g.toMove - 1]} to move${who}.`, g.toMove);
  }
  $("undo").disabled = state.moves.length === 0;
  $("redo").disabled = state.undone.length === 0;
  drawMoves();
  showAnalysis();
}

function setStatus(text, player) {
  const status = $("status");
  status.replaceChildren();
  if (player) status.append(disc(player));
  status.append(document.createTextNode(" " + text));
}

function drawMoves() {
  const list = $("moves");
  list.replaceChildren();
  const all = state.moves.concat([...state.undone].reverse());
  all.forEach((c, i) => {
    const item = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = String(c + 1);
    b.title = `Back to the position after move ${i + 1}`;
    if (i >= state.moves.length) b.classList.add("future");
    if (i === state.moves.length - 1) b.classList.add("current");
    b.addEventListener("click", () => jump(i + 1));
    item.append(disc((i % state.players) + 1), b);
    list.append(item);
  });
}

/** Puts the scores of `analysed` on the board, if they are of the position shown. */
function showAnalysis() {
  const pos = written(state.moves);
  const words = $("words");
  words.replaceChildren();
  const columns = document.querySelectorAll("#board .col");
  if (!analysed || analysed.pos !== pos) {
    $("note").textContent = state.showScores ? "" : "Scores are off.";
    return;
  }
  document.body.dataset.pos = pos;
  $("note").textContent = [$("note").dataset.address, analysed.note].filter(Boolean).join(" ");
  analysed.columns.forEach((a, c) => {
    const col = columns[c];
    if (!col) return;
    col.dataset.score = a.score === null ? "" : String(a.score);
    col.classList.toggle("best", a.best);
    const label = col.querySelector(".score");
    // A best column's ★ comes from the style (.best .score::after).
    label.textContent = a.score === null ? "" : (a.score > 0 ? "+" : "") + a.score;
    if (a.score !== null) {
      label.classList.add(a.score > 0 ? "win" : a.score < 0 ? "loss" : "draw");
      const item = document.createElement("li");
      item.value = c + 1;
      item.textContent = `${a.words}${a.best ? " ★ best" : ""}`;
      if (a.best) item.classList.add("best");
      words.append(item);
    }
  });
  if (!analysed.columns.some((a) => a.score !== null) && analysed.best.length) {
    const item = document.createElement("li");
    item.value = analysed.best[0];
    item.textContent = "the computer's pick ★";
    words.append(item);
  }
}

// ---- the server -------------------------------------------------------

let analysis = null; // the AbortController of the analysis under way
let moving = null; // that of the computer's move under way
let thinkingCount = 0;

function thinking(delta) {
  thinkingCount += delta;
  $("thinking").hidden = thinkingCount === 0;
  document.body.classList.toggle("busy", thinkingCount > 0);
}

async function ask(path, controller) {
  thinking(1);
  try {
    const answer = await fetch(path, { signal: controller.signal });
    const body = await answer.json();
    if (!answer.ok) throw new Error(body.error || `the server answered ${answer.status}`);
    return body;
  } finally {
    thinking(-1);
  }
}

/** Asks for the scores of the position shown, giving up the one before. */
function analyse() {
  if (analysis) analysis.abort();
  analysis = null;
  const pos = written(state.moves);
  if (!state.showScores) {
    analysed = null;
    document.body.dataset.pos = pos;
    return;
  }
  if (analysed && analysed.pos === pos) return;
  const controller = new AbortController();
  analysis = controller;
  ask(`/api/analyze?${query({ tab: TAB + "a" })}`, controller)
    .then((answer) => {
      if (controller.signal.aborted || answer.pos !== written(state.moves)) return;
      analysed = answer;
      showAnalysis();
    })
    .catch((e) => {
      if (e.name !== "AbortError") $("note").textContent = `No scores: ${e.message}`;
    });
}

/** Lets the computer move when it is its turn. */
function computerTurn() {
  if (moving) moving.abort();
  moving = null;
  const g = now();
  if (g.over || !state.computer.has(g.toMove)) return;
  const controller = new AbortController();
  moving = controller;
  const before = written(state.moves);
  ask(`/api/move?${query({ level: state.level, tab: TAB + "m" })}`, controller)
    .then((answer) => {
      if (controller.signal.aborted || written(state.moves) !== before) return;
      // A moment to see the move, computer against computer.
      setTimeout(() => {
        if (written(state.moves) === before && state.computer.has(now().toMove)) play(answer.col - 1);
      }, state.computer.size === state.players ? 250 : 0);
    })
    .catch((e) => {
      if (e.name !== "AbortError") $("note").textContent = `No move: ${e.message}`;
    });
}

// ---- changes ----------------------------------------------------------

function changed() {
  if (started) delete $("note").dataset.address;
  const url = new URL(location.href);
  url.search = query({});
  history.replaceState(null, "", url);
  draw();
  analyse();
  computerTurn();
}

function play(col) {
  if (!canPlay(col)) return false;
  state.moves.push(col);
  state.undone = [];
  changed();
  return true;
}

/** A person's click or key: played unless it is the computer's turn. */
function person(col) {
  const g = now();
  if (state.computer.has(g.toMove) && !g.over) return;
  play(col);
}

/**
 * Stepping through a game the computer plays on every side stops it:
 * else it plays again at once, and what was undone is lost. Its boxes
 * are unticked; ticking one again goes on.
 */
function pauseSelfPlay() {
  if (state.computer.size < state.players) return;
  state.computer.clear();
  drawComputerChoice();
}

function undo() {
  if (!state.moves.length) return;
  pauseSelfPlay();
  state.undone.push(state.moves.pop());
  // Undoing against the computer goes back to the person's turn.
  while (state.moves.length && state.computer.has(now().toMove) && state.computer.size < state.players) {
    state.undone.push(state.moves.pop());
  }
  changed();
}

function redo() {
  if (!state.undone.length) return;
  pauseSelfPlay();
  state.moves.push(state.undone.pop());
  changed();
}

/** Goes to the position after `n` moves of the move list. */
function jump(n) {
  pauseSelfPlay();
  const all = state.moves.concat([...state.undone].reverse());
  state.moves = all.slice(0, n);
  state.undone = all.slice(n).reverse();
  changed();
}

function drawComputerChoice() {
  const box = $("computer-players");
  box.replaceChildren();
  for (let p = 1; p <= state.players; p += 1) {
    const label = document.createElement("label");
    const check = document.createElement("input");
    check.type = "checkbox";
    check.value = String(p);
    check.checked = state.computer.has(p);
    check.addEventListener("change", () => {
      if (check.checked) state.computer.add(p);
      else state.computer.delete(p);
      draw();
      computerTurn();
    });
    label.append(check, disc(p));
    box.append(label);
  }
}

function newGame(rows, cols, players, moves) {
  state.rows = rows;
  state.cols = cols;
  state.players = players;
  state.moves = [];
  state.undone = [];
  analysed = null;
  for (const p of [...state.computer]) if (p > players) state.computer.delete(p);
  $("rows").value = rows;
  $("cols").value = cols;
  $("players").value = players;
  for (const c of moves) {
    if (!canPlay(c)) break;
    state.moves.push(c);
  }
  drawComputerChoice();
  changed();
}

function number(text, low, high, fallback) {
  const n = Number(text);
  return Number.isInteger(n) && n >= low && n <= high ? n : fallback;
}

function fromAddress() {
  const q = new URLSearchParams(location.search);
  const said = [];
  /** The address's `name` if it is a whole number in low..high, else `fallback`, said. */
  const taken = (name, low, high, fallback, what) => {
    const text = q.get(name);
    const n = number(text, low, high, NaN);
    if (text === null || text === "") return fallback;
    if (Number.isNaN(n)) {
      said.push(`The address's ${name}=${text} is not ${what} (${low} to ${high}); the page takes ${fallback}.`);
      return fallback;
    }
    return n;
  };
  const rows = taken("rows", 1, 99, 6, "a number of rows");
  const cols = taken("cols", 1, 99, 7, "a number of columns");
  const players = taken("players", 2, 35, 2, "a number of players");
  state.cols = cols;
  const given = q.get("pos") || "";
  const moves = parsePos(given);
  newGame(rows, cols, players, moves || []);
  if (!moves || state.moves.length < moves.length) {
    said.push(`The address's pos=${given} is not a game on this board; the game starts ${
      state.moves.length ? `after its first ${state.moves.length} moves` : "empty"
    }.`);
  }
  if (said.length) {
    // Said after the first analysis would overwrite it: the note of the page.
    $("note").dataset.address = said.join(" ");
    $("note").textContent = $("note").dataset.address;
  }
}

// ---- the four parts on a .cnf game ------------------------------------

const parts = { answer: null, part: 0, step: 0 };

async function openCnf(file) {
  const bytes = await file.arrayBuffer();
  const error = $("cnf-error");
  error.hidden = true;
  $("parts").hidden = true;
  try {
    const answer = await fetch(`/api/parts?name=${encodeURIComponent(file.name || "game.cnf")}`, {
      method: "POST",
      body: bytes,
    });
    const body = await answer.json();
    if (!answer.ok) throw new Error(body.error || `the server answered ${answer.status}`);
    parts.answer = body;
    showPart(3, Infinity);
  } catch (e) {
    error.textContent = e.message;
    error.hidden = false;
  }
}

function showPart(part, step) {
  const answer = parts.answer;
  const result = answer.parts[part];
  const steps = result.steps || [];
  parts.part = part;
  parts.step = Math.max(0, Math.min(step, steps.length));
  $("parts").hidden = false;
  const tabs = $("part-tabs");
  tabs.replaceChildren();
  answer.parts.forEach((p, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.setAttribute("role", "tab");
    b.setAttribute("aria-selected", String(i === part));
    b.textContent = `part0${p.part} ${p.function}`;
    b.addEventListener("click", () => showPart(i, Infinity));
    tabs.append(b);
  });
  const text = $("part-text");
  if (result.error) {
    drawCells($("part-board"), toCells(answer.start), answer.start.length, answer.start[0].length, null);
    $("step-label").textContent = "";
    text.textContent = result.error;
    text.classList.add("error");
    return;
  }
  text.classList.remove("error");
  const k = parts.step;
  const rows = k === 0 ? answer.start : steps[k - 1].rows;
  drawCells($("part-board"), toCells(rows), rows.length, rows[0].length, null);
  $("step-label").textContent =
    k === 0 ? `the file's board, ${steps.length} move${steps.length === 1 ? "" : "s"} to play`
      : `after move ${k} of ${steps.length} (column ${steps[k - 1].move})`;
  showText(k === steps.length ? result.text : shownResult(rows));
  document.body.dataset.part = String(result.part);
  document.body.dataset.step = String(k);
  compare();
}

/** The part's text, a span per line so that one can be marked. */
function showText(text) {
  const pre = $("part-text");
  pre.replaceChildren();
  for (const line of text.split("\n").slice(0, -1)) {
    const span = document.createElement("span");
    span.textContent = line + "\n";
    pre.append(span);
  }
}

/**
 * Compares the pasted output with the part's text: the first line that
 * differs is marked in the text, its first differing cell on the board,
 * and the move that put the right piece there is named.
 */
function compare() {
  const said = $("compare");
  const pasted = $("pasted").value;
  delete document.body.dataset.diffLine;
  said.textContent = "";
  const result = parts.answer && parts.answer.parts[parts.part];
  if (!pasted || !result || result.error) return;
  const want = result.text.split("\n");
  const got = pasted.replace(/\r\n/g, "\n").split("\n");
  if (got.length === want.length + 1 && got[got.length - 1] === "") got.pop();
  if (want[want.length - 1] === "" && got[got.length - 1] !== "") got.push("");
  let line = 0;
  while (line < want.length && line < got.length && want[line] === got[line]) line += 1;
  if (line === want.length && line === got.length) {
    said.textContent = "Your output is the part's, byte for byte.";
    document.body.dataset.diffLine = "0";
    return;
  }
  document.body.dataset.diffLine = String(line + 1);
  const spans = $("part-text").children;
  if (spans[line]) spans[line].classList.add("diff");
  const row = line - 1; // line 1 is "Result"
  const rows = result.rows;
  let where = `line ${line + 1}`;
  if (row >= 0 && row < rows.length) {
    const wanted = want[line].slice(1, -1);
    const had = (got[line] || "").replace(/^"|"$/g, "");
    let col = 0;
    while (col < wanted.length && wanted[col] === had[col]) col += 1;
    where += ` (row ${row + 1} from the top, column ${col + 1})`;
    const cell = document.querySelectorAll("#part-board .col")[col]?.children[1 + row];
    if (cell) cell.classList.add("diff");
    // The move that put the right piece (or left the cell empty) there.
    const steps = result.steps || [];
    const start = parts.answer.start[row]?.[col];
    if (wanted[col] !== undefined && start !== wanted[col]) {
      const k = steps.findIndex((s) => s.rows[row][col] === wanted[col]);
      if (k >= 0) where += `; move ${k + 1} (column ${steps[k].move}) put the right piece there`;
    }
  }
  said.textContent = `The first difference is at ${where}: expected ${want[line] ?? "the end"}, got ${got[line] ?? "the end"}.`;
}

/** Rows as the part's printed text shows them (each row a Haskell string). */
function shownResult(rows) {
  return ['"Result"', ...rows.map((r) => `"${r}"`), '""', ""].join("\n");
}

function toCells(rows) {
  return rows.map((r) => [...r].map((ch) => (ch === "-" ? 0 : TOKENS.indexOf(ch) + 1)));
}

function stepBy(delta) {
  if (!parts.answer) return;
  const steps = parts.answer.parts[parts.part].steps || [];
  const to = delta === -Infinity ? 0 : delta === Infinity ? steps.length : parts.step + delta;
  showPart(parts.part, to);
}

// ---- wiring -----------------------------------------------------------

function start() {
  $("show-scores").checked = state.showScores;
  $("show-scores").addEventListener("change", (e) => {
    state.showScores = e.target.checked;
    localStorage.setItem("connect-scores", state.showScores ? "on" : "off");
    draw();
    analyse();
  });
  $("level").addEventListener("change", (e) => {
    state.level = e.target.value;
    computerTurn();
  });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("setup").addEventListener("submit", (e) => {
    e.preventDefault();
    newGame(
      number($("rows").value, 1, 99, 6),
      number($("cols").value, 1, 99, 7),
      number($("players").value, 2, 35, 2),
      [],
    );
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input:not([type=checkbox]), select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
    if (/^[1-9]$/.test(e.key)) person(Number(e.key) - 1);
    else if (e.key === "u" || e.key === "ArrowLeft") undo();
    else if (e.key === "r" || e.key === "ArrowRight") redo();
    else return;
    e.preventDefault();
  });
  $("cnf").addEventListener("change", (e) => {
    if (e.target.files.length) openCnf(e.target.files[0]);
  });
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => {
    e.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    if (e.dataTransfer.files.length) openCnf(e.dataTransfer.files[0]);
  });
  $("pasted").addEventListener("input", () => parts.answer && showPart(parts.part, parts.step));
  $("step-first").addEventListener("click", () => stepBy(-Infinity));
  $("step-back").addEventListener("click", () => stepBy(-1));
  $("step-next").addEventListener("click", () => stepBy(1));
  $("step-last").addEventListener("click", () => stepBy(Infinity));
  fromAddress();
  started = true;
}

/** Set once the address's game is set up: later changes clear its note. */
let started = false;

start();
