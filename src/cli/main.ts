#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { runCli } from './run.js';
import { SIGNAL_EXIT_CODES } from './interrupts.js';

// V8 sizes the old generation by a growth factor it derives from the allocation rate, so a long run
// ends holding tens of MB of slack that no data needs: on multi-session Claude input, peak RSS was
// 118 MB at 100 MB and 155 MB at 1 GB, while the 1 GB run also finished with the old space capped at
// 64 MB. A fixed 10% growth step keeps the peak flat with input size (docs/robustness.md). V8 reads
// this flag at every collection, so setting it here, after start-up, takes effect. Only the command
// line does this: a program that embeds runCli keeps its own heap policy.
if (!/heap[-_]growing[-_]percent/.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`)) {
  setFlagsFromString('--heap-growing-percent=10');
}

// Write failures are handled where the output is written (OutputError); without a listener, the
// stream's own 'error' event would end the process with a stack trace instead.
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});

runCli({ argv: process.argv.slice(2), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() }).then(
  (code) => {
    // After a stop signal the command has written and committed all it will: nothing still open
    // (a terminal's stdin, a database pool winding down) may keep the process waiting.
    if (Object.values(SIGNAL_EXIT_CODES).includes(code as 129)) process.exit(code);
    process.exitCode = code;
  },
  (err: unknown) => {
    try {
      process.stderr.write(`toolnorm: ${err instanceof Error ? err.message : String(err)}\n`);
    } catch {
      // stderr is gone too.
    }
    process.exitCode = 1;
  },
);
