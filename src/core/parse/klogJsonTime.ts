// The time of a kubelet JSON log line (`--logging-format=json`, or `logging: {format: json}` in the kubelet's
// config file). Its writer is k8s.io/component-base/logs/json (json.go, NewJSONLogger): a zap JSON encoder
// with TimeKey "ts" and EncodeTime epochMillisTimeEncoder, which appends
// `float64(timeNow().UnixNano()) / float64(time.Millisecond)`: epoch MILLISECONDS as a float, written by
// zap's buffer.AppendFloat as strconv.AppendFloat(…, 'f', -1, 64), the shortest decimal that reads back to
// the same float64 (so `1795840896491.0784`, `1795840745166.35` or `1795840896491`, never an exponent for
// a present-day time). Every component-base version with a JSON format encodes it so. A real line (kubelet
// v1.36.2, test/fixtures/logs/json-1.36-pleg-fault.log):
//   {"ts":1795840896491.0784,"caller":"kubelet/kubelet.go:2661","msg":"Skipping pod synchronization","err":"[…]","errCauses":[…]}
// The log reader (logReaderLine.ts: `pleg-doctor logs`, the language server, the diagnosis) takes a JSON
// line's time from here; its property test (test/property/core/parse/klogJsonTime.test.ts) holds it to the writer. docs/kubelet-log-times.md lists the other forms.

/** Epoch ms of a JSON line's `ts` value as JSON.parse returned it; undefined when it is not a finite number. */
export function klogJsonTsToEpochMs(ts: unknown): number | undefined {
  return typeof ts === 'number' && Number.isFinite(ts) ? ts : undefined;
}
