import { MAX_LINE_BYTES, TOO_LONG, type Line } from './line-splitter.ts';

// The files a container runtime keeps on a node, read as they are: what the runtime puts around
// each line the server wrote is taken off, and a line it split into parts is joined again.
//
//   2026-11-22T05:12:33.213456789Z stdout F {…}     CRI (containerd, CRI-O): /var/log/pods/<ns>_<pod>_<uid>/<container>/0.log
//   2026-11-22T05:12:33.213456789Z stdout P {…      a part (P): joined with its stream's next parts, up to the F
//   {"log":"{…}\n","stream":"stdout","time":"…"}     Docker's json-file driver: /var/lib/docker/containers/<id>/<id>-json.log
//   {"log":"{…","stream":"stdout","time":"…"}        a part: its `log` does not end in \n
//
// Parts are joined per stream, since stdout's and stderr's interleave. A joined line is bounded
// as a line read whole is (MAX_LINE_BYTES, counted in characters: never more than its bytes);
// a line still open when its source ends was cut short by a crash or a rotation.

/** `<RFC 3339 time> <stream> <F|P> <content>` (kubelet's CRI log format; content may be empty). */
const CRI = /^\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:\d{2}) (stdout|stderr) ([FP])(?: |$)/;
/** json-file writes `log` first; the server's own lines start with `{"level":`. */
const DOCKER_START = '{"log":';

interface Part {
  stream: string;
  text: string;
  /** The part that ends its line: CRI's F, a `log` that ends in \n. */
  last: boolean;
}

export class ContainerLogs {
  /** Per stream, the parts of the line it has not ended yet. */
  private readonly open = new Map<string, { parts: string[]; length: number; tooLong: boolean }>();

  /**
   * Undefined when the line is not a container runtime's; else the line it ends: none while its
   * parts arrive, TOO_LONG when they went past the bound.
   */
  take(line: string): Line[] | undefined {
    const part = criPart(line) ?? dockerPart(line);
    if (part === undefined) return undefined;
    const open = this.open.get(part.stream) ?? { parts: [], length: 0, tooLong: false };
    open.length += part.text.length;
    if (open.length > MAX_LINE_BYTES) open.tooLong = true;
    if (open.tooLong) open.parts = [];
    else open.parts.push(part.text);
    if (!part.last) {
      this.open.set(part.stream, open);
      return [];
    }
    this.open.delete(part.stream);
    return [open.tooLong ? TOO_LONG : open.parts.join('')];
  }

  /** Lines whose last part never came: counted as cut short. */
  unfinished(): number {
    const count = this.open.size;
    this.open.clear();
    return count;
  }
}

function criPart(line: string): Part | undefined {
  const match = CRI.exec(line);
  if (match === null) return undefined;
  return { stream: match[1]!, text: line.slice(match[0].length), last: match[2] === 'F' };
}

function dockerPart(line: string): Part | undefined {
  if (!line.startsWith(DOCKER_START)) return undefined;
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return undefined;
  }
  const { log, stream } = entry as { log?: unknown; stream?: unknown };
  if (typeof log !== 'string') return undefined;
  const last = log.endsWith('\n');
  return { stream: typeof stream === 'string' ? stream : 'stdout', text: last ? log.slice(0, -1) : log, last };
}
