// Render corpus streams with xterm.js (headless) and write reference text.
//
// For every corpus/recordings/<name>.raw and corpus/hostile/<name>.raw (or only
// the names given as arguments) the raw bytes are fed to a headless xterm.js
// terminal of the size given in the sidecar JSON, with the Unicode 11 width
// tables active, and two files are written to corpus/xterm/:
//
//   <name>.lines.txt   the NORMAL buffer (scrollback + viewport) as logical
//                      lines: soft-wrapped rows are joined to the row before,
//                      trailing blank rows below the cursor are dropped.
//   <name>.screen.txt  the ACTIVE buffer's viewport, exactly `rows` rows,
//                      each right-trimmed, joined with "\n".
//   <name>.alt.txt     only for streams that use the alternate screen: its
//                      viewport (as in .screen.txt) just before it was last
//                      left (modes 47/1047/1049 reset, or RIS), or at the end
//                      if it is still active then.
//
// Usage:  node reference.mjs [--timeout SECONDS] [name ...]
// Each stream is rendered in a worker thread; one that takes longer than the
// timeout (default 60 s) is skipped and reported, its old outputs untouched.

import { readFileSync, writeFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import headless from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';

const { Terminal } = headless;
const { Unicode11Addon } = unicode11;

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..', '..');
const SOURCES = ['recordings', 'hostile'].map((d) => join(REPO, 'corpus', d));
const OUT = join(REPO, 'corpus', 'xterm');

function render(rawPath, jsonPath) {
  const meta = JSON.parse(readFileSync(jsonPath, 'utf8'));
  const data = new Uint8Array(readFileSync(rawPath));
  const cols = meta.columns;
  const rows = meta.rows;
  const term = new Terminal({
    cols,
    rows,
    scrollback: 1000000,
    allowProposedApi: true,
    convertEol: true,
    logLevel: 'off', // xterm.js logs parse errors for some hostile input; output is unaffected
  });
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = '11';
  const altFrame = trackAltFrame(term, rows);
  return new Promise((resolvePromise) => {
    term.write(data, () => {
      resolvePromise({ lines: normalLines(term), screen: activeScreen(term, rows), alt: altFrame() });
      term.dispose();
    });
  });
}

// The alternate screen's last frame: taken by parser hooks that run before
// xterm.js's own handlers (returning false lets those run), because leaving
// the alternate screen clears it.
function trackAltFrame(term, rows) {
  let last = null;
  const snap = () => {
    if (term.buffer.active.type === 'alternate') last = activeScreen(term, rows);
    return false;
  };
  const ALT_MODES = [47, 1047, 1049];
  term.parser.registerCsiHandler({ prefix: '?', final: 'l' }, (params) => {
    if (params.some((p) => ALT_MODES.includes(Array.isArray(p) ? p[0] : p))) snap();
    return false;
  });
  term.parser.registerEscHandler({ final: 'c' }, snap);
  return () => (term.buffer.active.type === 'alternate' ? activeScreen(term, rows) : last);
}

function normalLines(term) {
  const buf = term.buffer.normal;
  const cursorRow = buf.baseY + buf.cursorY;
  let lastNonBlank = -1;
  for (let y = buf.length - 1; y >= 0; y--) {
    const line = buf.getLine(y);
    if (line && line.translateToString(true) !== '') {
      lastNonBlank = y;
      break;
    }
  }
  const last = Math.min(Math.max(cursorRow, lastNonBlank), buf.length - 1);
  const logical = [];
  let current = null;
  for (let y = 0; y <= last; y++) {
    const line = buf.getLine(y);
    const next = y < last ? buf.getLine(y + 1) : undefined;
    const continues = next !== undefined && next.isWrapped;
    const text = line.translateToString(!continues);
    if (line.isWrapped && current !== null) {
      current += text;
    } else {
      if (current !== null) logical.push(current);
      current = text;
    }
  }
  if (current !== null) logical.push(current);
  return logical.join('\n');
}

function activeScreen(term, rows) {
  const buf = term.buffer.active;
  const out = [];
  for (let y = 0; y < rows; y++) {
    const line = buf.getLine(buf.baseY + y);
    out.push(line ? line.translateToString(true) : '');
  }
  return out.join('\n');
}

function findStreams(names) {
  const found = new Map();
  for (const dir of SOURCES) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).sort()) {
      if (!file.endsWith('.raw')) continue;
      const name = file.slice(0, -4);
      const jsonPath = join(dir, name + '.json');
      if (!existsSync(jsonPath)) continue;
      found.set(name, { name, rawPath: join(dir, file), jsonPath });
    }
  }
  if (names.length === 0) return [...found.values()];
  const missing = names.filter((n) => !found.has(n));
  if (missing.length) {
    console.error(`unknown stream(s): ${missing.join(', ')}`);
    process.exit(2);
  }
  return names.map((n) => found.get(n));
}

function runWorker(stream, timeoutMs) {
  return new Promise((resolvePromise) => {
    const started = Date.now();
    const worker = new Worker(fileURLToPath(import.meta.url), { workerData: stream });
    let settled = false;
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolvePromise({ ...result, ms: Date.now() - started });
    };
    const timer = setTimeout(() => {
      worker.terminate();
      finish({ status: 'timeout' });
    }, timeoutMs);
    worker.on('message', (msg) => {
      finish({ status: 'ok', ...msg });
      worker.terminate();
    });
    worker.on('error', (err) => finish({ status: 'error', error: String(err && err.stack) }));
    worker.on('exit', (code) => finish({ status: 'error', error: `worker exited ${code}` }));
  });
}

async function main() {
  const args = process.argv.slice(2);
  let timeoutS = 60;
  const names = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--timeout') timeoutS = Number(args[++i]);
    else names.push(args[i]);
  }
  mkdirSync(OUT, { recursive: true });
  const problems = [];
  for (const stream of findStreams(names)) {
    const res = await runWorker(stream, timeoutS * 1000);
    const secs = (res.ms / 1000).toFixed(1);
    if (res.status !== 'ok') {
      problems.push(`${stream.name}: ${res.status}${res.error ? ' ' + res.error : ''}`);
      console.log(`${stream.name.padEnd(32)} SKIPPED (${res.status} after ${secs}s)`);
      continue;
    }
    writeFileSync(join(OUT, stream.name + '.lines.txt'), res.lines, 'utf8');
    writeFileSync(join(OUT, stream.name + '.screen.txt'), res.screen, 'utf8');
    const altPath = join(OUT, stream.name + '.alt.txt');
    if (res.alt !== null) writeFileSync(altPath, res.alt, 'utf8');
    else if (existsSync(altPath)) rmSync(altPath);
    console.log(`${stream.name.padEnd(32)} ok  ${secs}s  ${res.lines.length} chars`);
  }
  if (problems.length) {
    console.log(`\n${problems.length} stream(s) skipped:\n  ${problems.join('\n  ')}`);
    process.exitCode = 1;
  }
}

if (isMainThread) {
  await main();
} else {
  const result = await render(workerData.rawPath, workerData.jsonPath);
  parentPort.postMessage(result);
}
