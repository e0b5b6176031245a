// A public API request as the /api page shows it: its URL (origin, path, query) and a curl command ready to
// copy. The query keeps its given order; the body is compact JSON in single quotes (shell-safe).
import { PUBLIC_API_BASE } from '../contract/public-api';

export interface ApiRequest {
  path: string;
  query: Record<string, string>;
  body: unknown;
}

export function requestUrl(origin: string, r: Pick<ApiRequest, 'path' | 'query'>) {
  const query = new URLSearchParams(r.query).toString();
  return `${origin}${PUBLIC_API_BASE}${r.path}${query ? `?${query}` : ''}`;
}

/** A string in single quotes for a POSIX shell: ' becomes '\''. */
const quoted = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

export function curlOf(origin: string, r: ApiRequest) {
  return [
    `curl -X POST ${quoted(requestUrl(origin, r))}`,
    `  -H ${quoted('Content-Type: application/json')}`,
    `  -d ${quoted(JSON.stringify(r.body))}`,
  ].join(' \\\n');
}
