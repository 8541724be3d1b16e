// The route matcher's index (./route-matcher.ts): which branches a path may match, found by its
// leading static segments, so a path's cost does not grow with the size of the table.

/** What the index reads of a branch: its whole path and each level's own. */
interface Branch {
  path: string;
  levels: readonly { relativePath: string }[];
}

/** A node of the static-prefix trie: the branches whose leading static segments end here, by rank. */
interface PrefixNode {
  /** Absent on a leaf: most nodes are one page's, and an empty Map costs more than the node. */
  children?: Map<string, PrefixNode>;
  branches: number[];
  /** Every branch a path ending its static prefix here may match, by rank: set once the index is built. */
  candidates?: readonly number[];
}

const ASCII = /^[\u0020-\u007e]*$/;

/**
 * A branch's leading static segments, lower-cased: a path it matches starts with them (its
 * pattern ignores case, or is stricter). They stop at the first dynamic, optional or splat
 * segment, and at one that is not printable ASCII (case-insensitive matching of those is not
 * toLowerCase's; a shorter prefix only lets more branches be tried).
 */
function staticPrefix(branch: Branch): string[] {
  const segments = branch.path
    .replace(/^\/+/, '')
    .replace(/\/*\*?$/, '')
    .split('/');
  const prefix: string[] = [];
  for (const segment of segments) {
    if (segment === '' || segment.startsWith(':') || segment.includes('*') || segment.includes('?') || !ASCII.test(segment)) break;
    prefix.push(segment.toLowerCase());
  }
  return prefix;
}

/**
 * The branches a path may match, found by its leading segments instead of trying every branch:
 * a path's cost depends on how many branches share its static prefix, not on the table's size
 * (one pattern of every branch ran 40 µs a request with 1,000 routes: too large for V8 to compile
 * to native code). A branch with a splat above its last level may match anything: always tried.
 */
export function indexByPrefix(branches: readonly Branch[]): (pathname: string) => readonly number[] {
  const root: PrefixNode = { branches: [] };
  const always: number[] = [];
  branches.forEach((branch, rank) => {
    if (branch.levels.slice(0, -1).some((level) => level.relativePath.includes('*'))) return void always.push(rank);
    let node = root;
    for (const segment of staticPrefix(branch)) {
      node.children ??= new Map();
      let child = node.children.get(segment);
      if (child === undefined) node.children.set(segment, (child = { branches: [] }));
      node = child;
    }
    node.branches.push(rank);
  });
  // Each node's candidates (its own branches, its ancestors' and those always tried), ranked once
  // here rather than gathered and sorted on every request. A node with no branch of its own
  // shares its parent's list.
  const rank = (node: PrefixNode, inherited: readonly number[]): void => {
    node.candidates = node.branches.length === 0 ? inherited : [...inherited, ...node.branches].sort((a, b) => a - b);
    for (const child of node.children?.values() ?? []) rank(child, node.candidates);
  };
  rank(
    root,
    [...always].sort((a, b) => a - b),
  );
  return (pathname) => {
    let node = root;
    // The segments after the leading slash; a pattern only ever matches a path that starts with one.
    let start = 1;
    while (node.children !== undefined && start <= pathname.length) {
      const end = pathname.indexOf('/', start);
      const child = node.children.get(pathname.slice(start, end === -1 ? undefined : end).toLowerCase());
      if (child === undefined) break;
      node = child;
      if (end === -1) break;
      start = end + 1;
    }
    return node.candidates!;
  };
}
