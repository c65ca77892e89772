/**
 * Child process of the REST bench (started by bench/rest-load.ts with `node --import tsx`): runs
 * autocannon for each LoadSpec received over IPC and answers with the figures. It exits when the
 * bench goes away (IPC channel closed).
 */
import autocannon, { type RawRequest } from 'autocannon';
import { render, type LoadResult, type WorkerReply, type WorkerRequest } from './rest-load';

async function runLoad(spec: WorkerRequest['spec']): Promise<LoadResult> {
  let counter = 0;
  const authHeaders = spec.tokens.map((t) => ({ ...spec.headers, Authorization: `Bearer ${t}` }));
  const setupRequest = (request: RawRequest): RawRequest => {
    const i = counter++;
    const variant = spec.variants[i % spec.variants.length];
    if (!variant) throw new Error('no variants');
    const n = `${spec.prefix}${i}`;
    request.method = spec.method;
    request.path = render(spec.path, variant.vars, n);
    // A copy: autocannon writes Content-Length into the object it is given.
    request.headers = { ...(authHeaders[variant.token] ?? spec.headers), ...variant.headers };
    if (spec.body !== undefined) request.body = render(spec.body, variant.vars, n);
    return request;
  };
  const cpu0 = process.cpuUsage();
  const result = await autocannon({
    url: spec.origin,
    connections: spec.connections,
    duration: spec.seconds,
    timeout: 10,
    requests: [{ setupRequest }],
  });
  const statuses: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {}))
    statuses[code] = Number(count);
  const ok = result['2xx'];
  const cpu = process.cpuUsage(cpu0);
  return {
    cpuMicros: cpu.user + cpu.system,
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    failed: result.non2xx + result.errors + result.timeouts,
    seconds: result.duration,
    statuses,
  };
}

const send = (reply: WorkerReply) => process.send?.(reply);

process.on('message', (message: WorkerRequest) => {
  runLoad(message.spec).then(
    (result) => send({ id: message.id, result }),
    (error: unknown) =>
      send({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
send({ id: 0 });
