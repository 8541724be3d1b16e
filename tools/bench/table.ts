// One table, two renderings: aligned text for the terminal and Markdown for the artifact.
import type { Row, Target } from './targets.ts';

export interface Table {
  headers: string[];
  /** Right-aligned (numeric) columns. */
  numeric: boolean[];
  rows: string[][];
}

export function toText(table: Table): string {
  const widths = table.headers.map((header, col) => Math.max(header.length, ...table.rows.map((row) => row[col]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, col) => (table.numeric[col] ? cell.padStart(widths[col]!) : cell.padEnd(widths[col]!))).join('  ');
  return [line(table.headers), widths.map((width) => '-'.repeat(width)).join('  '), ...table.rows.map(line)].join('\n');
}

export function toMarkdown(table: Table): string {
  const line = (cells: string[]) => `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
  const rule = table.numeric.map((numeric) => (numeric ? '---:' : '---'));
  return [line(table.headers), line(rule), ...table.rows.map(line)].join('\n');
}

function statusCell(row: Row): string {
  const sides = [row.ours, row.floor.measured, ...(row.main ? [row.main.measured] : [])];
  const unexpected = sides.reduce((sum, side) => sum + side.unexpected, 0);
  if (unexpected === 0) return `all ${row.expect} ✓`;
  const seen = Object.entries(row.ours.statuses).map(([status, count]) => `${status}×${count}`);
  return `UNEXPECTED ${unexpected} (ours ${seen.join(' ')})`;
}

function targetCell(row: Row, targets: Target[]): string {
  return targets
    .filter((candidate) => candidate.rowId === row.id)
    .map((target) => `${target.short ?? ''} ${target.pass ? 'pass' : 'MISS'}`.trim())
    .join(', ');
}

/** Two decimals, but small ratios keep two significant digits rather than reading as 0.00. */
function ratio(value: number | undefined): string {
  if (value === undefined) return '';
  return value >= 0.1 ? value.toFixed(2) : value.toPrecision(2);
}

const rps = (value: number) => value.toFixed(0);
const cpu = (value: number) => value.toFixed(0);

/** A row per case: ours, the floor's and the previous main's figures (medians of the rounds), the ratios and the targets. */
export function benchTable(rows: Row[], targets: Target[]): Table {
  const withMain = rows.some((row) => row.main !== undefined);
  const headers = [
    'case',
    'path',
    'rounds',
    'req/s',
    'p50 ms',
    'p99 ms',
    'CPU µs/req',
    'log B/req',
    'statuses',
    'floor',
    'floor req/s (CPU µs)',
    '× floor',
    ...(withMain ? ['main path', 'main req/s (CPU µs)', '× main'] : []),
    'target',
  ];
  const numeric = [
    false,
    false,
    true,
    true,
    true,
    true,
    true,
    true,
    false,
    false,
    true,
    true,
    ...(withMain ? [false, true, true] : []),
    false,
  ];
  return {
    headers,
    numeric,
    rows: rows.map((row) => [
      row.label,
      row.path,
      String(row.rounds),
      rps(row.ours.rps),
      String(row.ours.p50),
      String(row.ours.p99),
      cpu(row.ours.cpuUsPerRequest),
      row.ours.logBytesPerRequest.toFixed(0),
      statusCell(row),
      row.floor.path === row.path ? row.floor.name : `${row.floor.name} ${row.floor.path}`,
      `${rps(row.floor.measured.rps)} (${cpu(row.floor.measured.cpuUsPerRequest)})`,
      ratio(row.vsFloor),
      ...(withMain
        ? row.main
          ? [row.main.path, `${rps(row.main.measured.rps)} (${cpu(row.main.measured.cpuUsPerRequest)})`, ratio(row.vsMain)]
          : ['', '', '']
        : []),
      targetCell(row, targets),
    ]),
  };
}
