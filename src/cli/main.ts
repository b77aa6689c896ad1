#!/usr/bin/env node
import { runCli } from './run.js';

runCli({ argv: process.argv.slice(2), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() }).then(
  (code) => { process.exitCode = code; },
  (err: unknown) => { process.stderr.write(`toolnorm: ${String(err)}\n`); process.exitCode = 1; },
);
