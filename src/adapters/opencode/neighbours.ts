// What the files beside an OpenCode recording say about it: the MCP servers of the config it ran
// with (`opencode.json` / `opencode.jsonc`, or the same under `.opencode/`, key `mcp`) and the
// session directory of an `opencode export` there (`info.directory`). Run JSON carries neither, so
// without them `demo_echo` cannot be split into {server: "demo", tool: "echo"} and paths in titles
// stay absolute. The CLI loads this for OpenCode inputs; `--mcp-server` and `--cwd` override it.
// Node only (reads files); not part of the light core.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isObj } from '../../fields.js';

export interface Neighbours {
  /** MCP server names from the configs found. */
  mcpServers: string[];
  /** The session directory, when the exports beside the recordings agree on one. */
  cwd?: string;
  /** The files that said so, relative to the recording's directory, for the diagnostic line. */
  sources: string[];
}

const CONFIG_NAMES = ['opencode.json', 'opencode.jsonc', '.opencode/opencode.json', '.opencode/opencode.jsonc'];
/** Exports beside a recording are read whole: skip anything much larger than a session export. */
const MAX_EXPORT_BYTES = 64 * 1024 * 1024;

/** JSON with comments and trailing commas (OpenCode's config format) → a value, or undefined. */
export function parseJsonc(text: string): unknown {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else {
      out += ch;
    }
  }
  try {
    return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
  } catch {
    return undefined;
  }
}

/** Reads the neighbours of the given recording files (absolute or cwd-relative paths). */
export function readNeighbours(files: readonly string[]): Neighbours {
  const servers = new Set<string>();
  const dirs = new Set<string>();
  const sources: string[] = [];
  for (const dir of new Set(files.map((f) => dirname(f)))) {
    for (const name of CONFIG_NAMES) {
      const p = join(dir, name);
      if (!existsSync(p)) continue;
      const config = parseJsonc(readFileSync(p, 'utf8'));
      const mcp = isObj(config) ? config.mcp : undefined;
      if (!isObj(mcp)) continue;
      for (const server of Object.keys(mcp)) servers.add(server);
      sources.push(name);
    }
    let entries: string[];
    try {
      entries = readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
    } catch {
      continue;
    }
    for (const name of entries) {
      const p = join(dir, name);
      try {
        if (statSync(p).size > MAX_EXPORT_BYTES) continue;
        const doc = JSON.parse(readFileSync(p, 'utf8')) as unknown;
        const info = isObj(doc) && Array.isArray(doc.messages) && isObj(doc.info) ? doc.info : undefined;
        // A child session's export names the same directory as its parent's.
        if (info && typeof info.directory === 'string' && info.directory) {
          dirs.add(info.directory);
          sources.push(name);
        }
      } catch {
        // Not JSON, or not an export: not evidence.
      }
    }
  }
  return { mcpServers: [...servers].sort(), ...(dirs.size === 1 ? { cwd: [...dirs][0]! } : {}), sources };
}
