// `npm run bench -- <name> [args]` runs bench/<name>.ts. Benchmarks print ratios against a
// baseline measured in the same run (machines here are shared and noisy), never pass/fail on time.
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const available = readdirSync(dir).filter((f) => f.endsWith('.ts') && !['main.ts'].includes(f) && !f.startsWith('_')).map((f) => f.slice(0, -3)).sort();
const [name, ...args] = process.argv.slice(2);
if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <${available.join('|')}> [args]`);
  process.exit(name ? 2 : 0);
}
const file = `${dir}/${name}.ts`;
if (!existsSync(file)) process.exit(2);
const mod = (await import(pathToFileURL(file).href)) as { run(args: string[]): Promise<void> };
await mod.run(args);
