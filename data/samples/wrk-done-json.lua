-- wrk-done-json.lua - the done() script of ../../docs/formats.md (wrk): one
-- JSON line after the text report, read by rundown's wrk importer.
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"duration_us":%d,"requests":%d,"bytes":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"min":%d,"max":%d,"mean":%.2f,"stdev":%.2f,' ..
    '"p50":%d,"p75":%d,"p90":%d,"p99":%d,"p99.9":%d},' ..
    '"rps":{"mean":%.2f,"stdev":%.2f,"max":%d}}\n',
    summary.duration, summary.requests, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.min, latency.max, latency.mean, latency.stdev,
    latency:percentile(50), latency:percentile(75), latency:percentile(90),
    latency:percentile(99), latency:percentile(99.9),
    requests.mean, requests.stdev, requests.max))
end
