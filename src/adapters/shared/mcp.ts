// The shared MCP title registry, keyed by MCP tool name (the same tool gets the same title from
// every provider), plus the rule that decides `browser` vs `mcp` kind. Users extend it with
// `registerMcpTitle`.
import type { ToolKind } from '../../contract/index.js';
import { capitalize, domainOf, words } from '../../present/titles.js';
import { str } from '../../fields.js';
import { ownKeysOnly } from './table.js';

export type Args = Record<string, unknown>;
export type McpTitleRule = (args: Args, ref: { server: string; tool: string }) => string | undefined;

const quoted = (v: unknown) => (str(v) ? ` "${String(v)}"` : '');
const target = (args: Args) => str(args.element) ?? str(args.ref) ?? str(args.selector);

const BUILTIN: Record<string, McpTitleRule> = {
  browser_snapshot: () => 'Reading browser page',
  browser_navigate: () => 'Opening browser page',
  browser_navigate_back: () => 'Going back in browser',
  browser_navigate_forward: () => 'Going forward in browser',
  browser_tabs_new: () => 'Opening browser tab',
  browser_tab_new: () => 'Opening browser tab',
  browser_tabs_close: () => 'Closing browser tab',
  browser_tab_close: () => 'Closing browser tab',
  browser_tabs_list: () => 'Listing browser tabs',
  browser_tab_list: () => 'Listing browser tabs',
  browser_tabs_select: () => 'Switching browser tab',
  browser_tab_select: () => 'Switching browser tab',
  browser_tabs: (a) => (a.action === 'new' ? 'Opening browser tab' : a.action === 'close' ? 'Closing browser tab' : a.action === 'select' ? 'Switching browser tab' : 'Listing browser tabs'),
  browser_click: (a) => (target(a) ? `Clicking ${target(a)}` : 'Clicking in browser page'),
  browser_hover: (a) => (target(a) ? `Hovering over ${target(a)}` : 'Hovering in browser page'),
  browser_type: (a) => (target(a) ? `Typing into ${target(a)}` : 'Typing in browser page'),
  browser_fill_form: () => 'Filling browser form',
  browser_select_option: (a) => (target(a) ? `Selecting option in ${target(a)}` : 'Selecting browser option'),
  browser_press_key: (a) => (str(a.key) ? `Pressing ${String(a.key)}` : 'Pressing a key'),
  browser_take_screenshot: () => 'Taking browser screenshot',
  browser_screenshot: () => 'Taking browser screenshot',
  browser_evaluate: () => 'Running script in browser page',
  browser_wait_for: (a) => (str(a.text) ? `Waiting for "${String(a.text)}"` : 'Waiting in browser page'),
  browser_close: () => 'Closing browser',
  browser_console_messages: () => 'Reading browser console',
  browser_network_requests: () => 'Reading browser network requests',
  browser_resize: () => 'Resizing browser window',
  browser_file_upload: () => 'Uploading file in browser',
  browser_handle_dialog: () => 'Answering browser dialog',
  browser_drag: () => 'Dragging in browser page',
  browser_install: () => 'Installing browser',
  artifacts_register: (a) => `Registering artifact${str(a.name) ? ` ${String(a.name)}` : ''}`,
  artifacts_list: () => 'Listing artifacts',
  artifacts_get: (a) => `Reading artifact${str(a.name) ? ` ${String(a.name)}` : ''}`,
  web_search: (a) => (str(a.query) ? `Searching ${String(a.query)}` : 'Searching the web'),
  search: (a) => (str(a.query) ? `Searching ${String(a.query)}` : undefined),
  fetch: (a) => (str(a.url) ? `Fetching ${domainOf(String(a.url))}` : undefined),
  resolve_library_id: (a) => `Looking up library${quoted(a.libraryName)}`,
  get_library_docs: (a) => `Reading docs${str(a.context7CompatibleLibraryID) ? ` for ${String(a.context7CompatibleLibraryID)}` : ''}`,
};
ownKeysOnly(BUILTIN);

const custom = new Map<string, McpTitleRule>();

/** Adds or replaces the title rule of an MCP tool, for every provider. `server` narrows it to one server. */
export function registerMcpTitle(tool: string, rule: McpTitleRule, server?: string): void {
  custom.set(server ? `${server}/${tool}` : tool, rule);
}

/** Names of every MCP tool the registry knows, for adapters that must split `<server>_<tool>` names. */
export function knownMcpTools(): string[] {
  return [...new Set([...Object.keys(BUILTIN), ...[...custom.keys()].map((k) => k.split('/').pop()!)])];
}

/** Action text for an MCP call; never the raw `mcp__server__tool` name. */
export function mcpTitle(server: string, tool: string, args: unknown): string {
  const a = (args && typeof args === 'object' ? args : {}) as Args;
  // Most runs register no rule: no key is built for an empty registry.
  const rule = (custom.size !== 0 ? custom.get(`${server}/${tool}`) ?? custom.get(tool) : undefined) ?? BUILTIN[tool];
  const t = rule?.(a, { server, tool });
  if (t && t.trim()) return t.trim();
  return `${toolWords(tool)} (${server})`;
}

/** A tool name's readable words, remembered: a session calls the same few MCP tools again and again. */
const TOOL_WORDS = new Map<string, string>();
const TOOL_WORDS_KEPT = 1_000;
function toolWords(tool: string): string {
  let w = TOOL_WORDS.get(tool);
  if (w === undefined) {
    w = capitalize(words(tool)) || tool;
    if (TOOL_WORDS.size >= TOOL_WORDS_KEPT) TOOL_WORDS.clear();
    TOOL_WORDS.set(tool, w);
  }
  return w;
}

const BROWSER_SERVER = /browser|playwright|puppeteer|chrome|devtools|selenium/i;

/** `browser` for browser automation tools, `mcp` for any other MCP tool. */
export function mcpKind(server: string, tool: string): ToolKind {
  return tool.startsWith('browser_') || BROWSER_SERVER.test(server) ? 'browser' : 'mcp';
}

/** Intent-level kinds for MCP tools that are really a built-in intent (same intent, same kind). */
export function mcpIntentKind(server: string, tool: string): ToolKind {
  if (/^(web_)?search$|^web_search/.test(tool)) return 'web_search';
  return mcpKind(server, tool);
}
