// Codex web search: the action (snake_case in exec and rollouts, camelCase in the app-server) and
// the title rule. Codex sends no domain, so `Opening apnews.com` is computed from `action.url`.
import { domainOf } from '../../present/titles.js';
import { arr, camel, get, nonEmpty, obj, type Obj } from './fields.js';

export type SearchActionType = 'search' | 'openPage' | 'findInPage' | 'other';

export interface SearchAction {
  type: SearchActionType;
  query?: string;
  queries?: string[];
  url?: string;
  pattern?: string;
}

/** The action in one casing (`open_page` → `openPage`), or undefined when there is none. */
export function searchAction(raw: unknown): SearchAction | undefined {
  const a = obj(raw);
  const t = a && nonEmpty(a.type);
  if (!a || !t) return undefined;
  const c = camel(t);
  const type: SearchActionType = c === 'search' || c === 'openPage' || c === 'findInPage' ? c : 'other';
  const out: SearchAction = { type };
  const query = nonEmpty(a.query);
  const queries = arr(a.queries)?.filter((q): q is string => typeof q === 'string' && q.trim() !== '');
  const url = nonEmpty(a.url);
  const pattern = nonEmpty(a.pattern);
  if (query) out.query = query;
  if (queries?.length) out.queries = queries;
  if (url) out.url = url;
  if (pattern) out.pattern = pattern;
  return out;
}

/** What was searched, for a title: the action's query, else its first query, else `item.query`. */
function searched(action: SearchAction | undefined, itemQuery: string | undefined): string | undefined {
  if (action?.query) return action.query;
  if (action?.queries?.length) return action.queries.length > 1 ? `${action.queries[0]} …` : action.queries[0];
  return itemQuery;
}

/**
 * `Searching Reuters top news`, `Opening apnews.com`, `Finding "Updated" on apnews.com`. A search
 * still in flight has no action and an empty query: `Searching the web` until it completes.
 */
export function webSearchTitle(item: Obj): string {
  const action = searchAction(get(item, 'action'));
  const query = nonEmpty(item.query)?.trim();
  switch (action?.type) {
    case 'openPage':
      if (action.url) return `Opening ${domainOf(action.url)}`;
      return query ? `Opening ${query}` : 'Opening a web page';
    case 'findInPage':
      if (action.pattern && action.url) return `Finding "${action.pattern}" on ${domainOf(action.url)}`;
      if (action.pattern) return `Finding "${action.pattern}"`;
      if (action.url) return `Searching ${domainOf(action.url)}`;
      return query ? `Searching ${query}` : 'Searching a web page';
    default: {
      const q = searched(action, query);
      return q ? `Searching ${q}` : 'Searching the web';
    }
  }
}
