-- wrk reporter: one JSON line with requests/s, p50 and p99 latency (ms), and error count.
done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.status + summary.errors.timeout
  io.write(string.format(
    '{"rps": %.1f, "p50": %.3f, "p99": %.3f, "requests": %d, "errors": %d}\n',
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.requests, errors))
end
