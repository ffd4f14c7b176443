import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { createNodeHttpFetch, DEFAULT_NODE_HTTP_FETCH_OPTIONS, type NodeHttpFetchOptions } from './node-http-fetch.js';
import { closeServer, loopbackServers } from '../../__fixtures__/loopback-servers.js';

const loopback = loopbackServers();

/** Starts `server` on 127.0.0.1 and resolves with its `host:port`. */
async function listen(server: Server | NetServer): Promise<string> {
  return (await loopback.listen(server)).host;
}

async function httpServer(handler: RequestListener): Promise<string> {
  return (await loopback.serve(handler)).origin;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
  });
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('createNodeHttpFetch options', () => {
  it('defaults to a keep-alive agent with no socket cap', () => {
    expect(DEFAULT_NODE_HTTP_FETCH_OPTIONS).toEqual({ keepAlive: true, keepAliveMsecs: 1000, maxSockets: Number.POSITIVE_INFINITY });
    expect(Object.isFrozen(DEFAULT_NODE_HTTP_FETCH_OPTIONS)).toBe(true);
    expect(typeof createNodeHttpFetch({ keepAlive: false, keepAliveMsecs: 500, maxSockets: 4 })).toBe('function');
  });

  it.each([
    [{ keepAlive: 'yes' }, 'keepAlive'],
    [{ keepAliveMsecs: 0 }, 'keepAliveMsecs'],
    [{ keepAliveMsecs: Number.NaN }, 'keepAliveMsecs'],
    [{ maxSockets: 0 }, 'maxSockets'],
    [{ maxSockets: 1.5 }, 'maxSockets'],
    [{ maxSockets: '8' }, 'maxSockets'],
    [null, 'options'],
  ])('refuses %o with a HarnessConfigError naming %s', (options, field) => {
    expect(() => createNodeHttpFetch(options as NodeHttpFetchOptions)).toThrow(HarnessConfigError);
    expect(() => createNodeHttpFetch(options as NodeHttpFetchOptions)).toThrow(expect.objectContaining({ field }));
  });

  it('refuses to be created where there is no Node.js, with a typed error', () => {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'process')!;
    Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true, writable: true });
    let thrown: unknown;
    try {
      createNodeHttpFetch();
    } catch (error) {
      thrown = error;
    } finally {
      Object.defineProperty(globalThis, 'process', descriptor);
    }
    expect(HarnessConfigError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toContain('needs Node.js');
  });
});

describe('createNodeHttpFetch requests and responses', () => {
  it('sends the method, headers and a UTF-8 body with its byte length; returns status, statusText, joined headers and the body', async () => {
    const seen: { method?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    const url = await httpServer(async (request, response) => {
      Object.assign(seen, { method: request.method, headers: request.headers, body: await readBody(request) });
      response.statusMessage = 'Made It';
      response.setHeader('x-multi', ['a', 'b']);
      response.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":"✓"}');
    });
    const headers = new Headers({ 'X-Trace': 't-1', 'content-type': 'application/json' });
    const response = await createNodeHttpFetch()(`${url}/v1/items?x=1`, { method: 'post', headers, body: '{"name":"é"}', redirect: 'manual' });
    expect(response).toBeInstanceOf(Response);
    expect({ status: response.status, statusText: response.statusText, ok: response.ok }).toEqual({ status: 201, statusText: 'Made It', ok: true });
    expect(response.headers.get('x-multi')).toBe('a, b');
    expect(await response.json()).toEqual({ ok: '✓' });
    expect(seen.method).toBe('POST');
    expect(seen.headers).toMatchObject({ 'x-trace': 't-1', 'content-type': 'application/json', 'content-length': '13' });
    expect(seen.body).toBe('{"name":"é"}');
  });

  it('takes headers as a record or as pairs, and sends content-length 0 for a POST without a body', async () => {
    const seen: IncomingMessage['headers'][] = [];
    const url = await httpServer((request, response) => {
      seen.push(request.headers);
      request.resume();
      response.end();
    });
    const fetch = createNodeHttpFetch();
    await (await fetch(url, { method: 'POST', headers: { 'X-One': '1' } })).text();
    await (await fetch(url, { method: 'POST', headers: [['x-two', '2'], ['X-Two', '3']] })).text();
    expect(seen[0]).toMatchObject({ 'x-one': '1', 'content-length': '0' });
    expect(seen[1]).toMatchObject({ 'x-two': '2, 3', 'content-length': '0' });
  });

  it.each([204, 205, 304])('gives a null body for %i', async (status) => {
    const url = await httpServer((request, response) => {
      request.resume();
      response.writeHead(status).end();
    });
    const response = await createNodeHttpFetch()(url);
    expect(response.status).toBe(status);
    expect(response.body).toBeNull();
  });

  it('returns a 3xx as it is, never following it; redirect: "error" rejects', async () => {
    let elsewhereRequests = 0;
    const elsewhere = await httpServer((_request, response) => {
      elsewhereRequests += 1;
      response.end('moved here');
    });
    const url = await httpServer((request, response) => {
      request.resume();
      response.writeHead(302, { location: `${elsewhere}/target` }).end();
    });
    const fetch = createNodeHttpFetch();
    const response = await fetch(url, { method: 'POST', body: '{}', redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${elsewhere}/target`);
    await expect(fetch(url, { redirect: 'error' })).rejects.toMatchObject({ name: 'TypeError', message: 'fetch failed', cause: { message: 'unexpected redirect' } });
    expect(elsewhereRequests).toBe(0);
  });

  it('reuses one keep-alive socket; maxSockets: 1 queues concurrent requests on it', async () => {
    const ports: number[] = [];
    const url = await httpServer((request, response) => {
      ports.push(request.socket.remotePort!);
      request.resume();
      response.end('ok');
    });
    const fetch = createNodeHttpFetch({ maxSockets: 1 });
    const texts = await Promise.all([1, 2, 3].map(async () => (await fetch(url)).text()));
    expect(texts).toEqual(['ok', 'ok', 'ok']);
    expect(new Set(ports).size).toBe(1);
    const closing = createNodeHttpFetch({ keepAlive: false });
    await (await closing(url)).text();
    await (await closing(url)).text();
    expect(new Set(ports).size).toBe(3);
  });
});

describe('createNodeHttpFetch hosts', () => {
  it('reaches an IPv6 literal host', async () => {
    const server = loopback.track(createServer((_request, response) => response.end('over ipv6')));
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(0, '::1', () => resolve(true));
    });
    if (!listening) return; // no IPv6 loopback on this machine
    const response = await createNodeHttpFetch()(`http://[::1]:${(server.address() as AddressInfo).port}/`);
    expect(await response.text()).toBe('over ipv6');
  });
});

describe('createNodeHttpFetch failures', () => {
  it('rejects a network failure as TypeError("fetch failed") with the Node code as cause.code', async () => {
    const { server, origin: closed } = await loopback.serve(() => undefined);
    await closeServer(server);
    const refused = await createNodeHttpFetch()(`${closed}/v1?token=query-secret`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TypeError);
    expect(refused).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
    expect(String((refused as Error).message)).not.toContain('query-secret');

    const reset = await httpServer((request) => request.socket.destroy());
    await expect(createNodeHttpFetch()(reset)).rejects.toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNRESET' } });
  });

  it('errors the body stream when the connection breaks mid-body', async () => {
    const url = await httpServer((_request, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('partial', () => response.socket?.destroy());
    });
    const response = await createNodeHttpFetch()(url);
    await expect(response.text()).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('rejects statuses a Response cannot carry, and encoded bodies it does not decode, as network errors', async () => {
    const weird = await listen(createNetServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 600 Odd\r\ncontent-length: 0\r\n\r\n'))));
    await expect(createNodeHttpFetch()(`http://${weird}/`)).rejects.toMatchObject({ name: 'TypeError', message: 'fetch failed' });
    const gzip = await httpServer((_request, response) => response.writeHead(200, { 'content-encoding': 'gzip' }).end('not really'));
    await expect(createNodeHttpFetch()(gzip)).rejects.toMatchObject({ message: 'fetch failed', cause: { message: expect.stringContaining('content-encoding gzip') } });
  });

  it.each([
    ['ftp://example.test/file', /only http: and https:/],
    ['not a url?key=url-secret', /invalid URL/],
    ['http://user:url-secret@127.0.0.1:1/', /must not include credentials/],
  ])('rejects %s with a TypeError that does not quote the URL', async (url, message) => {
    const error = await createNodeHttpFetch()(url).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(message);
    expect(JSON.stringify({ message: (error as Error).message, cause: String((error as Error).cause) })).not.toContain('url-secret');
  });

  it('rejects a body it cannot send and an invalid header without quoting its value', async () => {
    const fetch = createNodeHttpFetch();
    await expect(fetch('http://127.0.0.1:1/', { method: 'POST', body: new ReadableStream() })).rejects.toThrow(/only string or byte/);
    const error = await fetch('http://127.0.0.1:1/', { headers: { authorization: 'Bearer header-secret\n' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect(JSON.stringify({ message: (error as Error).message, cause: String((error as Error).cause) })).not.toContain('header-secret');
  });
});

describe('createNodeHttpFetch aborts', () => {
  it('rejects at once with the reason when the signal already fired, sending nothing', async () => {
    let requests = 0;
    const url = await httpServer(() => (requests += 1));
    const reason = new Error('stop before');
    await expect(createNodeHttpFetch()(url, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(requests).toBe(0);
  });

  it('destroys the request while waiting for the answer: rejects with the reason, the server sees close', async () => {
    const arrived = deferred();
    const closed = deferred();
    const url = await httpServer((request) => {
      request.socket.once('close', closed.resolve);
      arrived.resolve();
    });
    const controller = new AbortController();
    const pending = createNodeHttpFetch()(url, { signal: controller.signal });
    await arrived.promise;
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await closed.promise;
  });

  it('errors the body stream with the reason while reading it, and closes the socket', async () => {
    const closed = deferred();
    const url = await httpServer((request, response) => {
      request.socket.once('close', closed.resolve);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n');
    });
    const controller = new AbortController();
    const response = await createNodeHttpFetch()(url, { signal: controller.signal });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    const reason = new Error('stop while reading');
    controller.abort(reason);
    await expect(reader.read()).rejects.toBe(reason);
    await closed.promise;
  });
});

const openssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const distEntry = fileURLToPath(new URL('../../../dist/index.js', import.meta.url));

function runNode(script: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      error === null ? resolve(stdout.trim()) : reject(new Error(`${error.message}\n${stderr}`)),
    );
  });
}

describe.skipIf(!openssl)('createNodeHttpFetch over https (self-signed certificate made with openssl)', () => {
  const directory = mkdtempSync(join(tmpdir(), 'node-http-fetch-'));
  const keyFile = join(directory, 'key.pem');
  const certFile = join(directory, 'cert.pem');
  if (openssl) {
    const subject = ['-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'];
    const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile];
    execFileSync('openssl', ['req', '-x509', ...key, '-days', '1', ...subject, '-out', certFile], { stdio: 'ignore' });
  }
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  async function httpsServer(): Promise<string> {
    const server = createHttpsServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, async (request, response) => {
      const body = await readBody(request);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echoed: body }));
    });
    return `https://${await listen(server)}`;
  }

  it('verifies the certificate: an untrusted one is a network error with the TLS code', async () => {
    const url = await httpsServer();
    await expect(createNodeHttpFetch()(url)).rejects.toMatchObject({ message: 'fetch failed', cause: { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' } });
  });

  it.skipIf(!existsSync(distEntry))('posts over https when the certificate is trusted (NODE_EXTRA_CA_CERTS, built entry)', async () => {
    const url = await httpsServer();
    const script = `
      const { createNodeHttpFetch } = await import(${JSON.stringify(distEntry)});
      const response = await createNodeHttpFetch()(${JSON.stringify(`${url}/v1`)}, { method: 'POST', body: 'hi' });
      console.log(response.status, await response.text());`;
    expect(await runNode(script, { NODE_EXTRA_CA_CERTS: certFile })).toBe('200 {"echoed":"hi"}');
  });
});

describe.skipIf(!existsSync(distEntry))('Worker safety of the built main entry', () => {
  it('importing it and creating the fetch load no node:http; the first call does', async () => {
    const script = `
      const httpLoaded = () => process.moduleLoadList.filter((name) => /^NativeModule (http|https|_http_client)$/.test(name)).length;
      const { createNodeHttpFetch } = await import(${JSON.stringify(distEntry)});
      const fetch = createNodeHttpFetch();
      const before = httpLoaded();
      await fetch('http://127.0.0.1:1/').catch(() => undefined);
      console.log(before, httpLoaded() > 0);`;
    expect(await runNode(script)).toBe('0 true');
  });
});
