#!/usr/bin/env node
import { runCli } from './run.js';

// Write failures are handled where the output is written (OutputError); without a listener, the
// stream's own 'error' event would end the process with a stack trace instead.
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});

runCli({ argv: process.argv.slice(2), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() }).then(
  (code) => { process.exitCode = code; },
  (err: unknown) => {
    try {
      process.stderr.write(`toolnorm: ${err instanceof Error ? err.message : String(err)}\n`);
    } catch {
      // stderr is gone too.
    }
    process.exitCode = 1;
  },
);
