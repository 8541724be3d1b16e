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
  const seen = Object.entries(row.statuses).map(([status, count]) => `${status}×${count}`);
  if (row.errors > 0) seen.push(`errors×${row.errors}`);
  return row.unexpected === 0 ? `all ${row.expect} ✓` : `UNEXPECTED ${seen.join(' ')}`;
}

function targetCell(row: Row, targets: Target[]): string {
  return targets
    .filter((candidate) => candidate.rowId === row.id)
    .map((target) => `${target.short ?? ''} ${target.pass ? 'pass' : 'MISS'}`.trim())
    .join(', ');
}

/** Two decimals, but small ratios keep two significant digits rather than reading as 0.00. */
function ratio(value: number): string {
  return value >= 0.1 ? value.toFixed(2) : value.toPrecision(2);
}

export function benchTable(rows: Row[], targets: Target[]): Table {
  return {
    headers: [
      'route',
      'path',
      'req/s',
      'p50 ms',
      'p99 ms',
      'CPU µs/req (floor)',
      'log B/req',
      'statuses',
      '× node:http',
      '× Express+React',
      '× bare',
      'floor path',
      'target',
    ],
    numeric: [false, false, true, true, true, true, true, false, true, true, true, false, false],
    rows: rows.map((row) => [
      row.label,
      row.path,
      row.rps.toFixed(0),
      String(row.p50),
      String(row.p99),
      `${row.cpuUsPerRequest.toFixed(0)} (${row.floorCpuUsPerRequest.toFixed(0)})`,
      row.logBytesPerRequest.toFixed(0),
      statusCell(row),
      ratio(row.vsHttp),
      ratio(row.vsFloor),
      ratio(row.vsBare),
      row.floorPath,
      targetCell(row, targets),
    ]),
  };
}
