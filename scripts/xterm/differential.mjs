// Render the differential cases with xterm.js (headless).
//
// Reads corpus/differential/cases.jsonl ({"name", "columns", "rows", "text"}
// per line, made by scripts/make_differential_cases.py) and writes
// corpus/differential/xterm.jsonl: {"name", "screen"} per case, where screen
// is the active buffer's viewport as in reference.mjs (exactly `rows` rows,
// each translateToString(true), joined with "\n"), or {"name", "error"} when
// xterm.js throws on the case (6.0.0 does for ED 1 with the cursor in the
// last column of the last row).
//
// Usage:  node differential.mjs            (cases.jsonl -> xterm.jsonl)
//         node differential.mjs markers    (markers.jsonl -> markers.xterm.jsonl)

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import headless from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';

const { Terminal } = headless;
const { Unicode11Addon } = unicode11;

const HERE = dirname(fileURLToPath(import.meta.url));
const DIR = join(resolve(HERE, '..', '..'), 'corpus', 'differential');

// xterm.js parses in a timer, so an exception it throws surfaces here.
let failed = null;
process.on('uncaughtException', (err) => {
  if (failed === null) throw err;
  failed(err);
});

function render(testCase) {
  const term = new Terminal({
    cols: testCase.columns,
    rows: testCase.rows,
    scrollback: 1000,
    allowProposedApi: true,
    convertEol: true,
    logLevel: 'off',
  });
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = '11';
  return new Promise((resolvePromise) => {
    failed = (err) => {
      failed = null;
      resolvePromise({ name: testCase.name, error: String(err).slice(0, 200) });
    };
    term.write(testCase.text, () => {
      failed = null;
      const buf = term.buffer.active;
      const rows = [];
      for (let y = 0; y < testCase.rows; y++) {
        const line = buf.getLine(buf.baseY + y);
        rows.push(line ? line.translateToString(true) : '');
      }
      term.dispose();
      resolvePromise({ name: testCase.name, screen: rows.join('\n') });
    });
  });
}

const set = process.argv[2];
const [input, output] = set ? [`${set}.jsonl`, `${set}.xterm.jsonl`] : ['cases.jsonl', 'xterm.jsonl'];
const cases = readFileSync(join(DIR, input), 'utf8').trim().split('\n').map(JSON.parse);
const out = [];
let errors = 0;
for (const testCase of cases) {
  const result = await render(testCase);
  if (result.error) errors++;
  out.push(JSON.stringify(result));
}
writeFileSync(join(DIR, output), out.join('\n') + '\n', 'utf8');
console.log(`${cases.length} cases rendered, ${errors} where xterm.js threw`);
