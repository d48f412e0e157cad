// The protobuf form of an OTLP ExportTraceServiceRequest (opentelemetry-proto, trace/v1 and common/v1), decoded
// into the shape of its JSON form (ids as hex), so the receiver reads both the same way. Only the fields the
// tests read; the wire format is varints, fixed 64/32-bit values and length-delimited fields.

type Field = { number: number; wire: number; value: bigint | Buffer };

function* fields(bytes: Buffer): Generator<Field> {
  let at = 0;
  const varint = () => {
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = bytes[at++];
      result |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return result;
    }
  };
  while (at < bytes.length) {
    const key = Number(varint());
    const wire = key & 7;
    const number = key >>> 3;
    if (wire === 0) yield { number, wire, value: varint() };
    else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      yield { number, wire, value: bytes.subarray(at, at + size) };
      at += size;
    } else if (wire === 2) {
      const length = Number(varint());
      yield { number, wire, value: bytes.subarray(at, at + length) };
      at += length;
    } else throw new Error(`OTLP protobuf: wire type ${wire} at byte ${at} is not one the trace request uses`);
  }
}

const text = (value: bigint | Buffer) => (value as Buffer).toString("utf8");
const hex = (value: bigint | Buffer) => (value as Buffer).toString("hex");

/** Each field's values by number, decoded by `decode` per field number (fields not listed are skipped). */
function message(bytes: Buffer, decode: Record<number, (value: bigint | Buffer) => unknown>) {
  const out: Record<number, unknown[]> = {};
  for (const { number, value } of fields(bytes)) {
    if (!decode[number]) continue;
    out[number] ??= [];
    out[number].push(decode[number](value));
  }
  return out;
}

function anyValue(bytes: bigint | Buffer) {
  const value = message(bytes as Buffer, {
    1: text,
    2: (v) => v === 1n,
    3: (v) => String(BigInt.asIntN(64, v as bigint)),
    4: (v) => (v as Buffer).readDoubleLE(0),
  });
  if (value[1]) return { stringValue: value[1][0] };
  if (value[2]) return { boolValue: value[2][0] };
  if (value[3]) return { intValue: value[3][0] };
  return value[4] ? { doubleValue: value[4][0] } : {};
}

const keyValue = (bytes: bigint | Buffer) => {
  const kv = message(bytes as Buffer, { 1: text, 2: anyValue });
  return { key: kv[1]?.[0], value: kv[2]?.[0] ?? {} };
};

function span(bytes: bigint | Buffer) {
  const s = message(bytes as Buffer, {
    1: hex,
    2: hex,
    4: hex,
    5: text,
    6: Number,
    7: (v) => (v as Buffer).readBigUInt64LE(0).toString(),
    8: (v) => (v as Buffer).readBigUInt64LE(0).toString(),
    9: keyValue,
    13: (link) => {
      const l = message(link as Buffer, { 1: hex, 2: hex });
      return { traceId: l[1]?.[0], spanId: l[2]?.[0] };
    },
    15: (status) => {
      const st = message(status as Buffer, { 2: text, 3: Number });
      return { message: st[2]?.[0], code: st[3]?.[0] ?? 0 };
    },
  });
  return {
    traceId: s[1]?.[0],
    spanId: s[2]?.[0],
    parentSpanId: s[4]?.[0] ?? "",
    name: s[5]?.[0],
    kind: s[6]?.[0] ?? 0,
    startTimeUnixNano: s[7]?.[0],
    endTimeUnixNano: s[8]?.[0],
    attributes: s[9] ?? [],
    links: s[13] ?? [],
    status: s[15]?.[0],
  };
}

/** ExportTraceServiceRequest → { resourceSpans: [{ resource: { attributes }, scopeSpans: [{ spans }] }] }. */
export function decodeTraceRequest(bytes: Buffer) {
  const request = message(bytes, {
    1: (resourceSpans) => {
      const rs = message(resourceSpans as Buffer, {
        1: (resource) => ({ attributes: message(resource as Buffer, { 1: keyValue })[1] ?? [] }),
        2: (scopeSpans) => ({ spans: message(scopeSpans as Buffer, { 2: span })[2] ?? [] }),
      });
      return { resource: rs[1]?.[0], scopeSpans: rs[2] ?? [] };
    },
  });
  return { resourceSpans: request[1] ?? [] };
}
