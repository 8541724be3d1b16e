// The wrappers operators' tools put around the server's JSON lines, taken off: what each line
// holds is zero or more log lines, each with the replica the wrapper names (if it names one).
//
//   {"level":30,…}                                 the server's own line (a file, kubectl logs, stdin)
//   [pod/<pod>/<container>] {…}                    kubectl logs --prefix (with --timestamps, a time after it)
//   <service>-1  | {…}                             docker compose logs (colours, when a terminal, are removed)
//   <container> {…}                                podman-compose logs / podman logs -n with several containers
//   {"labels":{…},"line":"{…}","timestamp":"…"}    Loki's logcli query --output=jsonl
//   {"status":"success","data":{"result":[…]}}     Loki's query_range API, one response per line (as Loki sends it)
//   {                                              any of these JSON forms printed over many lines (`curl … | jq`),
//     "status": "success", …                       gathered by cli/json-documents.ts (unwrapDocument)
//   }
//
// Anything else is not a log line and is counted as skipped; a Loki answer with no lines is none.

export interface Wrapped {
  /** The server's JSON line. */
  text: string;
  /** The pod, service or container the wrapper names; undefined for a bare line. */
  replica?: string;
}

/** Terminal colours docker compose puts around its prefix when writing to a terminal (ECMA-48 SGR). */
// eslint-disable-next-line no-control-regex -- ESC is the very character these sequences start with
const SGR = /\x1b\[[0-9;]*m/g;
/** kubectl: `[pod/<pod>/<container>]`; the pod is the replica. */
const KUBECTL = /^\[pod\/([^/\]\s]+)\/[^\]\s]+\]$/;
/** docker compose: `<name>  |` (padded to the longest name). */
const COMPOSE = /^([\w.-]+)\s*\|$/;
/** podman logs with several containers: the container's name or its short id. */
const PODMAN = /^([\w.-]+)$/;
/**
 * A time a tool adds after its prefix (kubectl --timestamps, podman -t, compose -t): RFC 3339,
 * the prefix's last word. Tested on that word alone: the pattern once started with an
 * unanchored `\s+`, which retried every start inside a run of blanks (60,000 blanks: 10–26 s).
 */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})$/;
/** How a Loki envelope starts; the server's own lines start with `{"level":`. */
const LOKI_START = /^\{"(labels|line|timestamp|status|data)":/;
/** Loki labels that name the process, most specific first. */
const LOKI_REPLICA_LABELS = ['replica', 'pod', 'container', 'instance', 'host', 'hostname', 'service_name'];

/** The log lines a line of input holds; undefined when it is none of the formats above. */
export function unwrap(line: string): Wrapped[] | undefined {
  if (!line.endsWith('}')) return undefined;
  if (line.startsWith('{')) return LOKI_START.test(line) ? fromLoki(parseObject(line)) : [{ text: line }];
  const brace = line.indexOf('{');
  if (brace === -1) return undefined;
  const replica = replicaOfPrefix(line.slice(0, brace).replace(SGR, '').trim());
  return replica === undefined ? undefined : [{ text: line.slice(brace), replica }];
}

function replicaOfPrefix(prefix: string): string | undefined {
  const bare = withoutTimestamp(prefix);
  return (KUBECTL.exec(bare) ?? COMPOSE.exec(bare) ?? PODMAN.exec(bare))?.[1];
}

/** The prefix without a trailing time; found with lastIndexOf, one pass whatever the blanks. */
function withoutTimestamp(prefix: string): string {
  const blank = Math.max(prefix.lastIndexOf(' '), prefix.lastIndexOf('\t'));
  return blank !== -1 && TIMESTAMP.test(prefix.slice(blank + 1)) ? prefix.slice(0, blank).trimEnd() : prefix;
}

type Json = Record<string, unknown>;

/**
 * A JSON document printed over several lines: a Loki answer, or a line of the server's as `jq .`
 * prints it, given back compact (so its text may differ from the line as the server wrote it).
 */
export function unwrapDocument(text: string): Wrapped[] | undefined {
  const value = parseObject(text);
  if (value === undefined) return undefined;
  const loki = (typeof value.line === 'string' && 'labels' in value) || (typeof value.status === 'string' && 'data' in value);
  return loki ? fromLoki(value) : [{ text: JSON.stringify(value) }];
}

function fromLoki(envelope: Json | undefined): Wrapped[] | undefined {
  if (envelope === undefined) return undefined;
  if (typeof envelope.line === 'string') return wrappedLine(envelope.line, envelope.labels);
  const result = (envelope.data as Json | undefined)?.result;
  if (!Array.isArray(result)) return undefined;
  // query_range: streams, each its labels and [nanosecond time, line] pairs. Another program's
  // lines in a stream are passed over; an answer with no lines at all holds none.
  return result.flatMap((stream: Json) =>
    Array.isArray(stream?.values)
      ? (stream.values as unknown[]).flatMap((pair) =>
          Array.isArray(pair) && typeof pair[1] === 'string' ? (wrappedLine(pair[1], stream.stream) ?? []) : [],
        )
      : [],
  );
}

/** Undefined when the line Loki holds is not a JSON object (another program's line in the stream). */
function wrappedLine(text: string, labels: unknown): Wrapped[] | undefined {
  const inner = text.trim();
  if (!inner.startsWith('{') || !inner.endsWith('}')) return undefined;
  return [{ text: inner, replica: replicaOfLabels(labels) }];
}

function replicaOfLabels(labels: unknown): string | undefined {
  if (typeof labels !== 'object' || labels === null) return undefined;
  for (const name of LOKI_REPLICA_LABELS) {
    const value = (labels as Json)[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

function parseObject(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}
