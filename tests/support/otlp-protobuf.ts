// OTLP's protobuf encoding (http/protobuf, the exporters' default), read for the tests' receivers:
// the protocol buffers wire format (https://protobuf.dev/programming-guides/encoding/) and the
// fields of opentelemetry-proto's trace messages that the tests look at
// (https://github.com/open-telemetry/opentelemetry-proto, opentelemetry/proto/trace/v1/trace.proto
// and common/v1/common.proto). Into the shape the JSON encoding decodes to (./otlp-receiver.ts),
// so one decoder of the flat spans serves both.

type Value = bigint | Buffer;
/** A message's fields by number, each a list (a repeated field, or one value). */
type Fields = Map<number, Value[]>;

const WIRE = { varint: 0, i64: 1, len: 2, i32: 5 } as const;
/** An absent message: every field at its default. */
const NO_FIELDS: Fields = new Map();

function readVarint(buffer: Buffer, at: number): [bigint, number] {
  let value = 0n;
  let shift = 0n;
  for (;;) {
    const byte = buffer[at++];
    if (byte === undefined) throw new Error('protobuf: a varint runs past the end');
    value |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [value, at];
    shift += 7n;
  }
}

function fieldsOf(buffer: Buffer): Fields {
  const fields: Fields = new Map();
  let at = 0;
  while (at < buffer.length) {
    const [key, next] = readVarint(buffer, at);
    at = next;
    const number = Number(key >> 3n);
    const wire = Number(key & 7n);
    let value: Value;
    if (wire === WIRE.varint) [value, at] = readVarint(buffer, at);
    else if (wire === WIRE.i64) [value, at] = [buffer.subarray(at, at + 8), at + 8];
    else if (wire === WIRE.i32) [value, at] = [buffer.subarray(at, at + 4), at + 4];
    else if (wire === WIRE.len) {
      const [length, start] = readVarint(buffer, at);
      const end = start + Number(length);
      if (end > buffer.length) throw new Error('protobuf: a field runs past the end');
      [value, at] = [buffer.subarray(start, end), end];
    } else throw new Error(`protobuf: wire type ${wire} is not one OTLP uses`);
    fields.set(number, [...(fields.get(number) ?? []), value]);
  }
  return fields;
}

const messages = (fields: Fields, number: number) => (fields.get(number) ?? []).map((value) => fieldsOf(value as Buffer));
const bytes = (fields: Fields, number: number) => fields.get(number)?.[0] as Buffer | undefined;
const text = (fields: Fields, number: number) => bytes(fields, number)?.toString('utf8');
const varint = (fields: Fields, number: number) => fields.get(number)?.[0] as bigint | undefined;
const hex = (fields: Fields, number: number) => {
  const id = bytes(fields, number);
  return id === undefined || id.length === 0 ? undefined : id.toString('hex');
};

/** AnyValue (common.proto): string 1, bool 2, int 3, double 4, as the JSON encoding writes them. */
function anyValue(fields: Fields): Record<string, unknown> {
  if (fields.has(1)) return { stringValue: text(fields, 1) };
  if (fields.has(2)) return { boolValue: varint(fields, 2) === 1n };
  if (fields.has(3)) return { intValue: String(BigInt.asIntN(64, varint(fields, 3)!)) };
  if (fields.has(4)) return { doubleValue: (fields.get(4)![0] as Buffer).readDoubleLE(0) };
  return {};
}

/** KeyValue: key 1, value 2. */
const attributes = (fields: Fields, number: number) =>
  messages(fields, number).map((pair) => ({ key: text(pair, 1), value: anyValue(messages(pair, 2)[0] ?? NO_FIELDS) }));

/**
 * An ExportTraceServiceRequest as the JSON encoding has it: resourceSpans (1) → resource (1,
 * attributes 1) and scopeSpans (2) → spans (2): traceId 1, spanId 2, parentSpanId 4, name 5,
 * kind 6, attributes 9, events 11 (name 2, attributes 3), status 15 (code 3).
 */
export function tracesRequestOf(body: Buffer): unknown {
  return {
    resourceSpans: messages(fieldsOf(body), 1).map((resourceSpans) => ({
      resource: { attributes: attributes(messages(resourceSpans, 1)[0] ?? NO_FIELDS, 1) },
      scopeSpans: messages(resourceSpans, 2).map((scopeSpans) => ({
        spans: messages(scopeSpans, 2).map((span) => ({
          traceId: hex(span, 1),
          spanId: hex(span, 2),
          parentSpanId: hex(span, 4),
          name: text(span, 5),
          kind: Number(varint(span, 6) ?? 0n),
          attributes: attributes(span, 9),
          events: messages(span, 11).map((event) => ({ name: text(event, 2), attributes: attributes(event, 3) })),
          status: { code: Number(varint(messages(span, 15)[0] ?? NO_FIELDS, 3) ?? 0n) },
        })),
      })),
    })),
  };
}
