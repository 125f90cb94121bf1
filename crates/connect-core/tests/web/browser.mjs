// The page of `connect serve` in a real browser: the system's Chromium,
// driven by puppeteer-core (which downloads no browser).
//
//   node browser.mjs [--screenshots]
//
// Starts `connect serve --port 0` (the binary CONNECT_BIN names, else the
// workspace's target/debug/connect), opens the page and plays: clicks,
// keys, undo/redo, the move list, the address round trip, a 3-player game,
// the computer's reply, the scores against the API and against `connect
// solve --analyze`, a .cnf stepped to its end against the fixture's
// solution, a bad .cnf, a bad request. Every check waits on the page's
// own marks (<body data-pos>, data-score), never on the clock. With
// --screenshots it writes docs/connect-serve-desktop.png (1280×800) and
// docs/connect-serve-phone.png (390×844), each through a temporary file
// and a rename; without, it takes them into a temporary folder.
// Chromium: CHROMIUM, else /usr/bin/chromium. Prints one line per check
// and "N passed, N failed"; exits 1 when a check failed, 2 when it could
// not start.

import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";

import puppeteer from "puppeteer-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../../..");
const connect = process.env.CONNECT_BIN || path.join(root, "target/debug/connect");
const chromium = process.env.CHROMIUM || "/usr/bin/chromium";
const screenshots = process.argv.includes("--screenshots");
const shotDir = screenshots ? path.join(root, "docs") : fs.mkdtempSync(path.join(os.tmpdir(), "connect-serve-"));
// Generous: a debug build on a loaded machine; a hang still fails.
const WAIT = 120_000;

for (const [what, file] of [["connect", connect], ["chromium", chromium]]) {
  if (!fs.existsSync(file)) {
    console.error(`browser.mjs: no ${what} at ${file}`);
    process.exit(2);
  }
}

/** Starts the server and resolves to its address once it prints it. */
async function startServer() {
  const server = spawn(connect, ["serve", "--port", "0", "--table-mb", "32"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = readline.createInterface({ input: server.stdout });
  const [line] = await once(lines, "line");
  const match = /^serving on (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(line);
  if (!match) throw new Error(`not the address line: ${line}`);
  return { server, base: match[1] };
}

/** What `connect ARGS` prints for `input`. */
function run(args, input) {
  const r = spawnSync(connect, args, { input, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`connect ${args.join(" ")}: exit ${r.status}: ${r.stderr}`);
  return r.stdout;
}

const results = [];
async function check(name, body) {
  try {
    await body();
    results.push([name, null]);
    console.log(`ok ${name}`);
  } catch (e) {
    results.push([name, e]);
    console.log(`not ok ${name}: ${e && e.stack ? e.stack : e}`);
  }
}

function equal(got, expected, what) {
  const a = JSON.stringify(got);
  const b = JSON.stringify(expected);
  if (a !== b) throw new Error(`${what}: got ${a}, expected ${b}`);
}

function ok(cond, what) {
  if (!cond) throw new Error(what);
}

const { server, base } = await startServer();
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: [
    ...(process.getuid && process.getuid() === 0 ? ["--no-sandbox"] : []),
    "--disable-dev-shm-usage",
    "--no-first-run",
  ],
});

/** Waits until the page shows the analysis of `pos` (or has scores off). */
async function analysed(page, pos) {
  await page.waitForFunction(
    (pos) => document.body.dataset.pos === pos,
    { timeout: WAIT },
    pos,
  );
}

/** The position in the page's address. */
async function addressPos(page) {
  return new URL(page.url()).searchParams.get("pos");
}

/** Each column's data-score, "" where it has none. */
async function pageScores(page) {
  return page.$$eval("#board .col", (cols) => cols.map((c) => c.dataset.score));
}

/** Each column's discs' tokens, top to bottom. */
async function discs(page) {
  return page.$$eval("#board .col", (cols) =>
    cols.map((c) => [...c.querySelectorAll(".disc")].map((d) => d.textContent).join("")),
  );
}

async function click(page, col) {
  await page.click(`#board .col[data-col="${col}"]`);
}

async function fresh(query) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  page.on("pageerror", (e) => console.log(`page error: ${e.message}`));
  await page.goto(`${base}${query}`);
  return page;
}

/** The scores `connect solve --analyze` prints for `pos`, "" for a full column. */
function solved(pos) {
  const line = run(["solve", "--analyze"], `${pos}\n`).trim().split(" ");
  const scores = pos === "" ? line : line.slice(1);
  return scores.map((s) => (s === "-" ? "" : s));
}

try {
  await check("the empty board's scores equal connect solve --analyze", async () => {
    const page = await fresh("?rows=6&cols=7&players=2&pos=");
    await analysed(page, "");
    equal(await pageScores(page), solved(""), "scores");
    const best = await page.$$eval("#board .col.best", (cols) => cols.map((c) => c.dataset.col));
    equal(best, ["4"], "the best column marked");
    const words = await page.$eval("#words", (w) => w.textContent);
    ok(words.includes("wins with its 21st stone"), `the words: ${words}`);
    await page.close();
  });

  await check("clicks play columns, the address follows, the scores equal the API's", async () => {
    const page = await fresh("");
    await analysed(page, "");
    for (const [col, pos] of [[4, "4"], [4, "44"]]) {
      await click(page, col);
      await analysed(page, pos);
      equal(await addressPos(page), pos, "the address");
    }
    await click(page, 5); // 445: its analysis is given up by the next move
    await click(page, 3);
    await analysed(page, "4453");
    equal(await addressPos(page), "4453", "the address");
    equal(await discs(page), ["", "", "2", "21", "1", "", ""], "the discs");
    const api = await (await fetch(`${base}api/analyze?rows=6&cols=7&players=2&pos=4453`)).json();
    const fromApi = api.columns.map((c) => (c.score === null ? "" : String(c.score)));
    equal(await pageScores(page), fromApi, "the page's scores and the API's");
    equal(fromApi, solved("4453"), "the API's scores and connect solve --analyze's");
    await page.close();
  });

  await check("undo, redo, keys and the move list", async () => {
    const page = await fresh("?pos=4453");
    await analysed(page, "4453");
    await page.click("#undo");
    equal(await addressPos(page), "445", "after undo");
    await page.click("#redo");
    await analysed(page, "4453");
    await page.keyboard.press("u");
    equal(await addressPos(page), "445", "after u");
    await page.keyboard.press("ArrowLeft");
    await analysed(page, "44");
    await page.keyboard.press("r");
    await page.keyboard.press("ArrowRight");
    await analysed(page, "4453");
    // The move list: back to the first move, the rest still to redo.
    const moves = await page.$$eval("#moves button", (b) => b.map((x) => x.textContent));
    equal(moves, ["4", "4", "5", "3"], "the move list");
    await page.click("#moves li:nth-child(1) button");
    await analysed(page, "4");
    equal(await page.$$eval("#moves button.future", (b) => b.length), 3, "moves to redo");
    // Keys play columns: 4 then the centre again.
    await page.keyboard.press("4");
    await analysed(page, "44");
    equal(await page.$$eval("#moves button.future", (b) => b.length), 0, "a new move drops the redo list");
    await page.close();
  });

  await check("the address round trip: a link opens its position", async () => {
    const page = await fresh("?rows=6&cols=7&players=2&pos=4453");
    await analysed(page, "4453");
    equal(await discs(page), ["", "", "2", "21", "1", "", ""], "the discs");
    const status = await page.$eval("#status", (s) => s.textContent);
    ok(status.includes("Player 1 to move"), status);
    await page.close();
    // A link past the game's end opens the game as far as it goes, and says so.
    const past = await fresh("?pos=12121213");
    await analysed(past, "1212121");
    const note = await past.$eval("#note", (n) => n.textContent);
    ok(note.includes("pos=12121213 is not a game on this board"), note);
    ok((await past.$eval("#status", (s) => s.textContent)).includes("Player 1 wins"), "the winner");
    await past.close();
  });

  await check("an address's bad sizes and markup are said as text, never run", async () => {
    const page = await fresh("?rows=1000000&cols=7&players=0&pos=<img src=x onerror=window.hacked=1>");
    await analysed(page, "");
    const note = await page.$eval("#note", (n) => n.textContent);
    ok(note.includes("rows=1000000 is not a number of rows (1 to 99); the page takes 6"), note);
    ok(note.includes("players=0 is not a number of players (2 to 35); the page takes 2"), note);
    ok(note.includes("pos=<img src=x onerror=window.hacked=1> is not a game on this board"), note);
    equal(await page.$$eval("#note *", (e) => e.length), 0, "elements in the note");
    // A .cnf whose strings hold markup: its error is text too.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "connect-cnf-"));
    const file = path.join(dir, "<img src=x onerror=window.hacked=2>.cnf");
    fs.writeFileSync(file, '(["<img src=x onerror=window.hacked=1>"],[1])');
    await (await page.$("#cnf")).uploadFile(file);
    await page.waitForSelector("#cnf-error:not([hidden])", { timeout: WAIT });
    const error = await page.$eval("#cnf-error", (e) => e.textContent);
    ok(error.startsWith("<img src=x onerror=window.hacked=2>.cnf:"), error);
    equal(await page.$$eval("#cnf-error *", (e) => e.length), 0, "elements in the error");
    equal(await page.evaluate(() => window.hacked), undefined, "the markup's script");
    fs.rmSync(dir, { recursive: true });
    await page.close();
  });

  await check("scores off stay off across moves and reloads", async () => {
    const page = await fresh("?pos=44");
    await analysed(page, "44");
    await page.click("#show-scores");
    await click(page, 5);
    await analysed(page, "445");
    equal((await pageScores(page)).join(""), "", "no scores shown");
    await page.reload();
    await analysed(page, "445");
    equal(await page.$eval("#show-scores", (c) => c.checked), false, "after a reload");
    await page.click("#show-scores");
    await page.keyboard.press("3");
    await analysed(page, "4453");
    equal(await pageScores(page), solved("4453"), "scores on again");
    await page.close();
  });

  await check("a 3-player game: each disc its player's, the scores said not exact", async () => {
    const page = await fresh("?rows=6&cols=7&players=3");
    await analysed(page, "");
    for (const [col, pos] of [[1, "1"], [2, "12"], [3, "123"], [1, "1231"]]) {
      await click(page, col);
      await analysed(page, pos);
    }
    equal(await discs(page), ["11", "2", "3", "", "", "", ""], "the discs");
    const note = await page.$eval("#note", (n) => n.textContent);
    ok(note.includes("exact only for two players"), note);
    const status = await page.$eval("#status", (s) => s.textContent);
    ok(status.includes("Player 2 to move"), status);
    await page.close();
  });

  await check("the computer replies as connect best does", async () => {
    const page = await fresh("?pos=");
    await analysed(page, "");
    await page.click('#computer-players input[value="2"]');
    await click(page, 4);
    await page.waitForFunction(() => document.body.dataset.pos.length === 2, { timeout: WAIT });
    const reply = run(["best"], "4\n").trim().split(" ")[1];
    equal(await addressPos(page), `4${reply}`, "the computer's reply");
    await page.close();
  });

  await check("undo stops the computer playing itself, and keeps what was undone", async () => {
    const page = await fresh("?pos=4453");
    await analysed(page, "4453");
    await page.click('#computer-players input[value="1"]');
    await page.click('#computer-players input[value="2"]');
    await page.waitForFunction(() => new URLSearchParams(location.search).get("pos").length >= 6, { timeout: WAIT });
    await page.keyboard.press("u");
    const pos = await addressPos(page);
    equal(await page.$$eval("#computer-players input:checked", (c) => c.length), 0, "the computer's boxes ticked");
    await analysed(page, pos);
    equal(await addressPos(page), pos, "the position undone to");
    equal(await page.$eval("#redo", (b) => b.disabled), false, "redo disabled");
    await page.keyboard.press("r");
    await analysed(page, await addressPos(page));
    equal((await addressPos(page)).length, pos.length + 1, "one move redone");
    await page.close();
  });

  await check("a .cnf stepped to its end prints part04's solution", async () => {
    const page = await fresh("?pos=");
    await analysed(page, "");
    const input = await page.$("#cnf");
    await input.uploadFile(path.join(root, "fixtures/test03.cnf"));
    await page.waitForFunction(() => document.body.dataset.part === "4", { timeout: WAIT });
    const expected = fs.readFileSync(path.join(root, "fixtures/test03.manyPlayersManyMoves.solution"), "utf8");
    equal(await page.$eval("#part-text", (p) => p.textContent), expected, "part 4's text");
    await page.click("#step-first");
    equal(await page.evaluate(() => document.body.dataset.step), "0", "at the start");
    await page.click("#step-next");
    equal(await page.evaluate(() => document.body.dataset.step), "1", "one move on");
    await page.click("#step-last");
    equal(await page.$eval("#part-text", (p) => p.textContent), expected, "at the end again");
    // A student's output pasted: the first differing line is marked.
    const lines = expected.split("\n");
    const at = lines.findIndex((l, i) => i > 0 && /[1-9a-z]/.test(l));
    const col = lines[at].search(/[1-9a-z]/);
    const other = lines[at][col] === "1" ? "2" : "1";
    lines[at] = lines[at].slice(0, col) + other + lines[at].slice(col + 1);
    await page.type("#pasted", lines.join("\n"));
    await page.waitForFunction(() => document.body.dataset.diffLine !== undefined, { timeout: WAIT });
    equal(await page.evaluate(() => document.body.dataset.diffLine), String(at + 1), "the line marked");
    const said = await page.$eval("#compare", (c) => c.textContent);
    ok(said.includes(`row ${at} from the top, column ${col}`), said);
    equal(await page.$$eval("#part-board .cell.diff", (c) => c.length), 1, "the cell marked");
    await page.$eval("#pasted", (t) => { t.value = ""; });
    await page.type("#pasted", expected);
    await page.waitForFunction(() => document.body.dataset.diffLine === "0", { timeout: WAIT });
    // Part 1 on the same file.
    await page.click("#part-tabs button:nth-child(1)");
    const one = fs.readFileSync(path.join(root, "fixtures/test03.onePlayerOneMove.solution"), "utf8");
    equal(await page.$eval("#part-text", (p) => p.textContent), one, "part 1's text");
    await page.close();
  });

  await check("a bad .cnf shows its located error", async () => {
    const page = await fresh("?pos=");
    await analysed(page, "");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "connect-cnf-"));
    const bad = path.join(dir, "bad.cnf");
    fs.writeFileSync(bad, "([,");
    await (await page.$("#cnf")).uploadFile(bad);
    await page.waitForSelector("#cnf-error:not([hidden])", { timeout: WAIT });
    const error = await page.$eval("#cnf-error", (e) => e.textContent);
    ok(error.startsWith("bad.cnf:1:3: expected a row string"), error);
    fs.rmSync(dir, { recursive: true });
    await page.close();
  });

  await check("a bad request gets 400 and what is valid", async () => {
    const page = await fresh("?pos=");
    const [status, body] = await page.evaluate(async () => {
      const r = await fetch("/api/analyze?pos=48");
      return [r.status, await r.json()];
    });
    equal(status, 400, "the status");
    ok(body.error.includes("not a column of the board (1 to 7)"), body.error);
    await page.close();
  });

  await check("screenshots at desktop and phone width", async () => {
    for (const [name, width, height] of [["desktop", 1280, 800], ["phone", 390, 844]]) {
      const page = await browser.newPage();
      await page.setViewport({ width, height, deviceScaleFactor: 1 });
      await page.goto(`${base}?rows=6&cols=7&players=2&pos=4453`);
      await analysed(page, "4453");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      ok(overflow <= 0, `${name}: the page is ${overflow} px wider than the window`);
      const file = path.join(shotDir, `connect-serve-${name}.png`);
      const tmp = `${file}.tmp-${process.pid}.png`;
      await page.screenshot({ path: tmp });
      fs.renameSync(tmp, file);
      await page.close();
    }
  });
} finally {
  await browser.close();
  server.kill();
  if (!screenshots) fs.rmSync(shotDir, { recursive: true, force: true });
}

const failed = results.filter(([, e]) => e).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
