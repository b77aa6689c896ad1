// Child processes for the store tests: spawn test/store/child.ts under tsx and talk in lines.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));
export const CLI_MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

export class Child {
  readonly proc: ChildProcess;
  readonly lines: string[] = [];
  stderr = '';
  private waiters: { test: (l: string) => boolean; resolve: (l: string) => void; reject: (e: Error) => void }[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  /** Runs `entry` (default: test/store/child.ts) under tsx with `args`. */
  constructor(args: string[], entry = CHILD) {
    this.proc = spawn(process.execPath, ['--import', 'tsx', entry, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    createInterface({ input: this.proc.stdout! }).on('line', (l) => {
      this.lines.push(l);
      for (const w of [...this.waiters]) if (w.test(l)) { this.waiters.splice(this.waiters.indexOf(w), 1); w.resolve(l); }
    });
    this.proc.stderr!.on('data', (d) => { this.stderr += String(d); });
    this.exited = new Promise((resolve) => this.proc.on('close', (code, signal) => {
      for (const w of this.waiters.splice(0)) w.reject(new Error(`child exited (${code ?? signal}) before the expected line; stderr: ${this.stderr.slice(-2000)}`));
      resolve({ code, signal });
    }));
  }

  /** The next line (from now on, or already received after `from`) that passes `test`. */
  next(test: (l: string) => boolean, from = this.lines.length): Promise<string> {
    const seen = this.lines.slice(from).find(test);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => this.waiters.push({ test, resolve, reject }));
  }

  send(line: string): void {
    this.proc.stdin!.write(`${line}\n`);
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<unknown> {
    this.proc.kill(signal);
    return this.exited;
  }
}
