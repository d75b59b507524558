// client.mjs drives a running fileinfo MCP server with the official MCP
// TypeScript SDK, a client the project did not write, and checks every
// answer. cmd/fileinfo/e2e_test.go runs it against the built binary:
//
//	node client.mjs stdio --bin BIN --root WS --outside FILE --extra DIR --declared DIR
//	node client.mjs http  --url URL --token T --root WS --outside FILE --extra DIR --declared DIR
//
// stdio spawns `BIN serve --root WS`; http connects to a server the caller
// started with `serve --http ... --token T --allow-root EXTRA`. WS is a
// fresh copy of the workspace in shop.txtar (ws/); FILE is a source file
// outside it; the client declares EXTRA and DECLARED as its roots.
//
// Each step prints one JSON line. The first failed expectation prints
// "FAIL <step>: <what>" on stderr and exits 1; success exits 0.

import { parseArgs } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ErrorCode, ListRootsRequestSchema, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { pathToFileURL } from 'node:url';

// hangBound bounds each wait for what must come: it bounds a hang, and
// says nothing of speed, which a loaded machine (two shared cores, a
// server built with -race) makes many times slower. The whole run ends
// within the Go test's budget, three minutes.
const hangBound = 60_000;
const deadline = setTimeout(() => fail('run', 'not finished after 150 s'), 150_000);
deadline.unref();

let step = 'start';

function fail(where, msg) {
  process.stderr.write(`FAIL ${where}: ${msg}\n`);
  process.exit(1);
}

function expect(cond, msg, got) {
  if (!cond) {
    fail(step, got === undefined ? msg : `${msg}; got ${JSON.stringify(got, null, 2)}`);
  }
}

const started = performance.now();

// report prints a step's result, with the milliseconds since the start.
function report(result) {
  process.stdout.write(JSON.stringify({ step, ms: Math.round(performance.now() - started), ...result }) + '\n');
}

// text returns the text content of a tool or resource result.
function text(res) {
  return (res.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');
}

// ok calls a tool that must succeed and returns its structured content,
// the metadata beside the text (the tools declare no output schema: the
// text is what a model reads).
async function ok(client, name, args) {
  const res = await client.callTool({ name, arguments: args });
  expect(!res.isError, `${name}(${JSON.stringify(args)}) failed: ${text(res)}`);
  expect(res.structuredContent && typeof res.structuredContent === 'object', `${name} returned no structured content`, res);
  return { res, out: res.structuredContent };
}

// refused calls a tool that must answer with a tool error (isError), the
// kind a model can read and act on, whose text holds every one of wants.
async function refused(client, name, args, ...wants) {
  let res;
  try {
    res = await client.callTool({ name, arguments: args });
  } catch (err) {
    fail(step, `${name}(${JSON.stringify(args)}) threw instead of returning isError: ${err.message}`);
  }
  expect(res.isError === true, `${name}(${JSON.stringify(args)}) succeeded, want isError`, res);
  const msg = text(res);
  for (const w of wants) {
    expect(msg.includes(w), `${name}(${JSON.stringify(args)}) error does not say ${JSON.stringify(w)}`, msg);
  }
  return msg;
}

// rejects runs fn, which must throw, and returns the error.
async function rejects(fn, what) {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  fail(step, `${what} succeeded, want an error`);
}

// storeReport documents ws/lib/store.go completely.
const storeReport = {
  path: 'lib/store.go',
  overview: 'Defines Store, an in-memory map of integers by key, used by the command in main.go.',
  inputs: 'Keys and integer values.',
  functions: [
    { name: 'NewStore', purpose: 'Returns an empty Store.', implementation: '1. Allocate a Store with an empty map.\n2. Return it.' },
  ],
  classes: [
    {
      name: 'Store',
      purpose: 'Holds integers by key.',
      methods: [
        { name: 'Put', purpose: "Sets a key's value.", implementation: '1. Assign v to m[key].' },
        { name: 'Get', purpose: "Returns a key's value.", implementation: '1. Return m[key], zero when absent.' },
      ],
    },
  ],
};

// connect connects client over transport and checks the handshake. It
// returns the protocol version the two sides agreed on.
async function connect(client, transport) {
  step = 'initialize';
  let negotiated;
  // The client hands the agreed version to transports that take it (the
  // HTTP one sends it as a header); catch it on stdio too.
  if (!transport.setProtocolVersion) {
    transport.setProtocolVersion = (v) => { negotiated = v; };
  }
  await client.connect(transport);
  negotiated ??= transport.protocolVersion;
  const info = client.getServerVersion();
  expect(info?.name === 'fileinfo', 'server name is not fileinfo', info);
  expect(SUPPORTED_PROTOCOL_VERSIONS.includes(negotiated), `negotiated protocol version ${negotiated} is not one the SDK supports`);
  const caps = client.getServerCapabilities();
  expect(caps?.tools && caps?.resources, 'server does not announce tools and resources', caps);
  expect((client.getInstructions() ?? '').includes('report_file_info'), 'instructions do not teach the file_info/report_file_info loop', client.getInstructions());
  report({ server: info, protocolVersion: negotiated, capabilities: Object.keys(caps).sort() });
  return negotiated;
}

// exercise runs the loop a model would: list, describe, report, find it up
// to date, read the artifact; and checks the refusals on the way.
async function exercise(client, root, outside) {
  step = 'tools/list';
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  expect(JSON.stringify(names) === JSON.stringify(['ask_docs', 'callees', 'callers', 'doc_outline', 'explain_error', 'fetch_doc', 'file_info', 'find_symbol', 'get_working_example', 'index_status', 'inspect_source', 'list_docs', 'open_view', 'report_file_info', 'search_docs', 'set_workspace_root']),
    'unexpected tool names', names);
  for (const t of tools) {
    expect(t.inputSchema.type === 'object', `${t.name}: input schema is not an object`, t.inputSchema);
    expect(t.inputSchema.additionalProperties === false, `${t.name}: input schema allows additional properties`, t.inputSchema);
    if (['file_info', 'report_file_info', 'inspect_source', 'set_workspace_root'].includes(t.name)) expect(t.inputSchema.required?.includes('path'), `${t.name}: path is not required`, t.inputSchema);
    expect(t.outputSchema === undefined, `${t.name}: an output schema, which tools/list has no room for (issue 32)`, t.outputSchema);
  }
  report({ tools: names });

  step = 'file_info prompt';
  let { res, out } = await ok(client, 'file_info', { path: 'lib/store.go' });
  expect(out.status === 'prompt_ready' && out.path === 'lib/store.go' && out.language === 'go', 'file_info did not get a Go prompt ready', out);
  expect(out.part === 1 && out.parts === 1 && out.start_line === 1 && out.end_line === 12, 'want part 1 of 1 over lines 1-12', out);
  expect(JSON.stringify(out.symbols) === JSON.stringify(['Store', 'NewStore', 'Store.Put', 'Store.Get']), 'unexpected symbols', out.symbols);
  expect(out.artifact === 'basic' && out.artifact_path === '.artifacts/lib/store.go.md', 'the first file_info should write the basic artifact', out);
  expect(out.tokens > 0 && out.tokens <= 24000, 'token count out of range', out.tokens);
  expect(out.prompt === undefined && JSON.stringify(out).length <= 1024, 'the structured content should carry only metadata; the prompt travels once, as text', out);
  for (const want of [
    '## Structural Info', '## Source Code', 'report_file_info',
    'func NewStore() *Store',
    'called by: `main` (main.go:6)', // the callers section: NewStore is called from main
    '10\tfunc (s *Store) Put(key string, v int) { s.m[key] = v }',
  ]) {
    expect(text(res).includes(want), `prompt lacks ${JSON.stringify(want)}`, text(res));
  }
  report({ status: out.status, tokens: out.tokens, symbols: out.symbols, artifact: out.artifact });

  step = 'file_info absolute path inside root';
  ({ out } = await ok(client, 'file_info', { path: path.join(root, 'lib', 'store.go') }));
  expect(out.path === 'lib/store.go' && out.status === 'prompt_ready', 'an absolute path inside the root is not taken as the file', out);
  report({ path: out.path });

  step = 'report_file_info';
  ({ res, out } = await ok(client, 'report_file_info', storeReport));
  expect(out.status === 'written' && out.path === 'lib/store.go' && out.artifact === '.artifacts/lib/store.go.md', 'report not written', out);
  expect(Array.isArray(out.undocumented) && out.undocumented.length === 0, 'everything was documented', out.undocumented);
  expect(text(res).includes('Every function is documented'), 'report text', text(res));
  report({ status: out.status, artifact: out.artifact, undocumented: out.undocumented });

  step = 'file_info up to date';
  ({ res, out } = await ok(client, 'file_info', { path: 'lib/store.go' }));
  expect(out.status === 'up_to_date' && out.artifact === 'enriched', 'after the report file_info should hand back the artifact', out);
  expect(!text(res).includes('## Source Code') && text(res).includes("**Purpose**: Sets a key's value."), 'the text is not the enriched artifact', text(res));
  report({ status: out.status, artifact: out.artifact });

  step = 'refusals';
  const rel = path.relative(root, outside); // ../outside/secret.go
  const refusals = {
    relative: await refused(client, 'file_info', { path: rel }, 'refused'),
    absolute: await refused(client, 'file_info', { path: outside }, 'refused'),
    symlink: await refused(client, 'file_info', { path: 'escape.go' }),
    inspect: await refused(client, 'inspect_source', { path: rel, start_line: 1, end_line: 2 }, 'refused'),
    report: await refused(client, 'report_file_info', { ...storeReport, path: outside }, 'refused'),
    missing: await refused(client, 'file_info', { path: 'lib/gone.go' }, 'no such file'),
    unknownName: await refused(client, 'report_file_info',
      { ...storeReport, functions: [{ name: 'NewStorage', purpose: 'x', implementation: '1. x' }] }, '"NewStorage"', 'nothing was written'),
    extraArgument: await refused(client, 'file_info', { path: 'lib/store.go', surprise: true }, 'surprise'),
    wrongType: await refused(client, 'inspect_source', { path: 'lib/store.go', start_line: '1', end_line: 2 }, 'start_line'),
  };
  report({ refusals });

  step = 'inspect_source';
  ({ res, out } = await ok(client, 'inspect_source', { path: 'lib/store.go', start_line: 10, end_line: 99 }));
  expect(out.path === 'lib/store.go' && out.start_line === 10 && out.end_line === 12 && out.total_lines === 12, 'inspect_source range', out);
  expect(out.text === '10\tfunc (s *Store) Put(key string, v int) { s.m[key] = v }\n11\t\n12\tfunc (s *Store) Get(key string) int { return s.m[key] }\n',
    'inspect_source lines', out.text);
  await refused(client, 'inspect_source', { path: 'lib/store.go', start_line: 13, end_line: 13 }, 'past the end');
  report({ start_line: out.start_line, end_line: out.end_line, total_lines: out.total_lines });

  step = 'resources';
  const { resources } = await client.listResources();
  expect(resources.some((r) => r.uri === 'fileinfo://artifacts' && r.mimeType === 'application/json'), 'fileinfo://artifacts is not listed', resources);
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.some((r) => r.uriTemplate === 'fileinfo://artifacts/{+path}'), 'the artifact template is not listed', resourceTemplates);

  let rr = await client.readResource({ uri: 'fileinfo://artifacts' });
  expect(rr.contents.length === 1 && rr.contents[0].mimeType === 'application/json', 'artifact list contents', rr);
  const list = JSON.parse(rr.contents[0].text);
  const entry = list.artifacts.find((a) => a.path === 'lib/store.go');
  expect(entry && entry.status === 'enriched' && entry.uri === 'fileinfo://artifacts/lib/store.go' && entry.artifact === '.artifacts/lib/store.go.md',
    'lib/store.go is not listed as enriched', list);

  rr = await client.readResource({ uri: entry.uri });
  const md = rr.contents[0]?.text ?? '';
  expect(rr.contents[0]?.mimeType === 'text/markdown', 'artifact MIME type', rr.contents[0]);
  for (const want of ['# lib/store.go', '**Purpose**: Returns an empty Store.', 'Defines Store, an in-memory map', '1. Assign v to m[key].']) {
    expect(md.includes(want), `artifact lacks ${JSON.stringify(want)}`, md);
  }
  for (const uri of ['fileinfo://artifacts/main.go', 'fileinfo://artifacts/../outside/secret.go']) {
    // Resource not found is Invalid Params (-32602) since SEP-2164, in
    // the go-sdk from v1.7.0 as in this SDK; it used to be -32002.
    const err = await rejects(() => client.readResource({ uri }), `reading ${uri}`);
    expect(err.code === ErrorCode.InvalidParams && /not found/i.test(err.message) && err.data?.uri === uri,
      `reading ${uri}: want resource not found (-32602 with the uri)`, { code: err.code, message: err.message, data: err.data });
  }
  report({ artifacts: list.artifacts, artifactBytes: md.length });

  await partial(client, root);
}

// partial checks that a report naming some symbols keeps the prose of the
// others, and that a symbol without prose makes the artifact partial,
// which file_info treats as work to do.
async function partial(client, root) {
  step = 'report keeps earlier prose';
  const put = { name: 'Put', purpose: 'Stores v under key.', implementation: '1. Assign v to m[key].' };
  let { out } = await ok(client, 'report_file_info', { ...storeReport, functions: [], classes: [{ name: 'Store', purpose: 'Holds integers by key.', methods: [put] }] });
  expect(out.artifact_status === 'enriched' && out.undocumented.length === 0, 'a report of one method lost the others', out);
  let md = (await client.readResource({ uri: 'fileinfo://artifacts/lib/store.go' })).contents[0].text;
  for (const want of ['**Purpose**: Returns an empty Store.', '**Purpose**: Stores v under key.', "**Purpose**: Returns a key's value."]) {
    expect(md.includes(want), `artifact lacks ${JSON.stringify(want)}`, md);
  }
  report({ artifact_status: out.artifact_status });

  step = 'partial artifact';
  fs.appendFileSync(path.join(root, 'lib', 'store.go'), '\nfunc (s *Store) Len() int { return len(s.m) }\n');
  ({ out } = await ok(client, 'report_file_info', { path: 'lib/store.go', functions: [], classes: [{ name: 'Store', methods: [put] }] }));
  expect(out.artifact_status === 'partial' && JSON.stringify(out.undocumented) === '["Store.Len"]', 'a new method without prose should make the artifact partial', out);
  ({ out } = await ok(client, 'file_info', { path: 'lib/store.go' }));
  expect(out.status === 'prompt_ready' && out.artifact === 'partial' && JSON.stringify(out.missing) === '["Store.Len"]', 'file_info on a partial artifact should ask for what is missing', out);
  const list = JSON.parse((await client.readResource({ uri: 'fileinfo://artifacts' })).contents[0].text);
  expect(list.artifacts.find((a) => a.path === 'lib/store.go')?.status === 'partial', 'the listing does not say partial', list);
  await refused(client, 'report_file_info', { ...storeReport, part: 1e15 }, 'out of range', 'nothing was written');
  ({ out } = await ok(client, 'report_file_info', { path: 'lib/store.go', functions: [], classes: [{ name: 'Store', methods: [{ name: 'Len', purpose: 'Counts the keys.', implementation: '1. Return len(m).' }] }] }));
  expect(out.artifact_status === 'enriched' && out.undocumented.length === 0, 'reporting what was missing should complete the artifact', out);
  const done = await ok(client, 'file_info', { path: 'lib/store.go' });
  out = done.out;
  expect(out.status === 'up_to_date' && text(done.res).includes('**Purpose**: Stores v under key.') && text(done.res).includes('**Purpose**: Counts the keys.'), 'the completed artifact', out);
  report({ status: out.status });
}

// declareRoots makes client declare extra and declared as its roots.
function declareRoots(client, opts) {
  client.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: [opts.extra, opts.declared].map((dir) => ({ uri: pathToFileURL(dir).href, name: path.basename(dir) })),
  }));
}

// roots checks that set_workspace_root stays inside the allowed roots: the
// starting root, extra (a client root; over HTTP an --allow-root), and
// over stdio declared; that nothing is written where it refuses; and that
// switching back to the starting root works.
async function roots(client, opts, overHTTP) {
  step = 'set_workspace_root refusals';
  const start = fs.realpathSync(opts.root);
  const outsideDir = path.dirname(opts.outside);
  const etcHad = fs.existsSync('/etc/.artifacts');
  const refusedDirs = ['/etc', outsideDir, ...(overHTTP ? [opts.declared] : [])];
  const refusals = {};
  for (const dir of refusedDirs) {
    refusals[dir] = await refused(client, 'set_workspace_root', { path: dir }, 'not inside an allowed root', start, fs.realpathSync(opts.extra));
  }
  await refused(client, 'set_workspace_root', { path: path.relative(opts.root, outsideDir) }, 'not inside an allowed root');
  expect(etcHad || !fs.existsSync('/etc/.artifacts'), '/etc/.artifacts was created');
  for (const dir of [outsideDir, opts.declared]) {
    expect(!fs.existsSync(path.join(dir, '.artifacts')), `${dir}/.artifacts was created`);
  }
  let { out } = await ok(client, 'file_info', { path: 'lib/store.go' });
  expect(out.path === 'lib/store.go', 'after the refusals the workspace changed', out);
  report({ refusals });

  step = 'set_workspace_root allowed';
  ({ out } = await ok(client, 'set_workspace_root', { path: opts.extra }));
  expect(out.root === fs.realpathSync(opts.extra) && out.files === 1, 'switching to an allowed root', out);
  const tool = await ok(client, 'file_info', { path: 'tool.py' });
  expect(text(tool.res).includes('called by: `run` (tool.py:2)'), 'the allowed root is not the workspace', text(tool.res));
  ({ out } = await ok(client, 'set_workspace_root', { path: opts.root }));
  expect(out.root === start && out.files === 2, 'switching back to the starting root', out);
  report({ back: out.root, files: out.files });
}

// shapes holds Python shapes that used to crash the call graph: nested
// comprehensions in parentheses and lists.
const shapes = `def keys(d):
    x = ([(k) for k in d])
    return x


def grid(xs, ys):
    m = [[[0, 0] for i in xs] for j in ys]
    return m


def pairs(a):
    return ([(s, o) for s, o in a if s])


def main():
    keys({})
    grid([1], [2])
    pairs([])
`;

// watchedSave saves a Python file with those shapes into the workspace,
// waits for the watcher to take it in (index_status counts it without any
// tool reading it), and checks that the server still answers about it.
async function watchedSave(client, root) {
  step = 'watched save of crash shapes';
  let { out } = await ok(client, 'index_status', {});
  const before = out.files;
  fs.writeFileSync(path.join(root, 'shapes.py'), shapes);
  const until = Date.now() + hangBound;
  while (out.files !== before + 1) {
    expect(Date.now() < until, `index_status still counts ${out.files} files ${hangBound / 1000} s after the save, want ${before + 1}`, out);
    await new Promise((r) => setTimeout(r, 50));
    ({ out } = await ok(client, 'index_status', {}));
  }
  const counted = out.files;
  const internal = (out.skipped_paths ?? []).filter((s) => s.reason.includes('internal error'));
  expect(internal.length === 0, 'files skipped for an internal error', internal);
  const saved = await ok(client, 'file_info', { path: 'shapes.py' });
  for (const want of ['def pairs(a):', 'called by: `main` (shapes.py:16)', 'called by: `main` (shapes.py:18)']) {
    expect(text(saved.res).includes(want), `the prompt of shapes.py lacks ${JSON.stringify(want)}`, text(saved.res));
  }
  report({ files: counted, internalErrors: internal.length });
}

// mainReport is what the sampling client's "model" answers: the report of
// main.go.
const mainReport = {
  path: 'main.go',
  overview: 'The command that fills a Store and prints a value.',
  functions: [{ name: 'main', purpose: 'Puts a value into a new Store and prints it.', implementation: '1. Make a Store.\n2. Put a value.\n3. Print it.' }],
};

// sampling asks file_info to document main.go through the client's model:
// a client that offers sampling gets the artifact written from its
// model's answer; one that does not gets the prompt, with a note.
async function sampling(client, offered) {
  step = 'file_info sampling';
  const { res, out } = await ok(client, 'file_info', { path: 'main.go', mode: 'sampling' });
  if (offered) {
    expect(out.status === 'enriched' && out.artifact === 'enriched', 'sampling did not write the artifact', out);
    const read = await client.readResource({ uri: 'fileinfo://artifacts/main.go' });
    expect(read.contents[0].text.includes('Puts a value into a new Store'), 'the artifact lacks the sampled prose', read.contents[0].text);
  } else {
    expect(out.status === 'prompt_ready' && text(res).includes('does not offer sampling'), 'no fallback to the prompt', out);
  }
  report({ status: out.status });
}

async function runStdio(opts) {
  const transport = new StdioClientTransport({
    command: opts.bin,
    args: ['serve', '--root', opts.root],
    stderr: 'inherit', // server logs (and race reports) reach the Go test
    // The SDK passes the server only a few safe variables, such as PATH
    // and HOME; GORACE is the Go test's, for a server built with -race.
    env: { ...getDefaultEnvironment(), ...(process.env.GORACE && { GORACE: process.env.GORACE }) },
  });
  const client = new Client({ name: 'fileinfo-e2e', version: '1.0.0' }, { capabilities: { sampling: {}, roots: { listChanged: true } } });
  declareRoots(client, opts);
  let sampled = 0;
  client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
    sampled++;
    const prompt = req.params.messages[0].content.text;
    expect(prompt.includes('## Source Code') && prompt.includes('"main.go"'), 'the sampling request lacks the prompt', prompt.slice(0, 200));
    return { role: 'assistant', model: 'e2e-fixed', content: { type: 'text', text: '```json\n' + JSON.stringify(mainReport) + '\n```' } };
  });
  const protocolVersion = await connect(client, transport);
  await exercise(client, opts.root, opts.outside);
  await roots(client, opts, false);
  await watchedSave(client, opts.root);
  await sampling(client, true);
  expect(sampled === 1, `the server sent ${sampled} sampling requests, want 1`);

  step = 'close';
  // The server must exit, cleanly, when its stdin closes. The SDK's close()
  // ends stdin and signals the server if it has not exited 2 s later, so
  // the time it took would say which ended it, on a machine never slower
  // than that: the test ends stdin itself, sends no signal, and waits for
  // the exit. transport._process is the SDK's child process (the SDK is
  // pinned in package-lock.json).
  const child = transport._process;
  expect(child && child.exitCode === null, 'no running server process to close');
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const start = Date.now();
  child.stdin.end();
  const exit = await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, hangBound).unref())]);
  const ms = Date.now() - start;
  expect(exit !== undefined, `the server had not exited ${hangBound / 1000} s after its stdin closed`);
  expect(exit.code === 0 && exit.signal === null, 'the server did not exit cleanly after its stdin closed', exit);
  await client.close();
  report({ closeMs: ms });
  return { transport: 'stdio', protocolVersion };
}

async function runHTTP(opts) {
  const url = new URL(opts.url);
  const initialize = JSON.stringify({
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
  const post = (headers) => fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: initialize,
  });

  step = 'http without token';
  const challenges = {};
  for (const [what, headers] of [['no token', {}], ['a wrong token', { Authorization: 'Bearer not-' + opts.token }]]) {
    const res = await post(headers);
    await res.body?.cancel();
    expect(res.status === 401, `a request with ${what} got HTTP ${res.status}, want 401`);
    // RFC 6750 wants a "WWW-Authenticate: Bearer" challenge on a 401.
    challenges[what] = res.headers.get('www-authenticate');
    expect(challenges[what]?.startsWith('Bearer'), `${what}: no Bearer challenge on the 401`, challenges[what]);
  }
  // The SDK client without credentials must fail to connect, not hang.
  const anon = new Client({ name: 'fileinfo-e2e-anon', version: '1.0.0' });
  const err = await rejects(() => anon.connect(new StreamableHTTPClientTransport(url)), 'connecting without a token');
  expect(err.code === 401, 'connecting without a token failed for another reason than 401', { name: err.name, message: err.message, code: err.code });
  await anon.close();
  report({ unauthorized: 401, wwwAuthenticate: challenges, sdkError: { name: err.name, code: err.code, message: err.message.trim() } });

  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { Authorization: `Bearer ${opts.token}` } },
  });
  const client = new Client({ name: 'fileinfo-e2e', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
  declareRoots(client, opts);
  const protocolVersion = await connect(client, transport);
  expect(transport.sessionId, 'the server did not assign a session id');
  await exercise(client, opts.root, opts.outside);
  await roots(client, opts, true);
  await watchedSave(client, opts.root);
  await sampling(client, false);

  step = 'close';
  const session = transport.sessionId;
  await transport.terminateSession(); // DELETE: the server ends the session
  await client.close();
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
      Authorization: `Bearer ${opts.token}`, 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': protocolVersion,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
  await res.body?.cancel();
  expect(res.status === 404, `a request in the terminated session got HTTP ${res.status}, want 404`);
  report({ terminated: true, afterwards: res.status });
  return { transport: 'http', protocolVersion };
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    bin: { type: 'string' },
    url: { type: 'string' },
    token: { type: 'string' },
    root: { type: 'string' },
    outside: { type: 'string' },
    extra: { type: 'string' },
    declared: { type: 'string' },
  },
});
const mode = positionals[0];
const need = { stdio: ['bin', 'root', 'outside', 'extra', 'declared'], http: ['url', 'token', 'root', 'outside', 'extra', 'declared'] }[mode];
if (!need || positionals.length !== 1 || need.some((k) => !values[k])) {
  fail('usage', 'node client.mjs stdio --bin BIN --root WS --outside FILE --extra DIR --declared DIR | http --url URL --token T --root WS --outside FILE --extra DIR --declared DIR');
}

try {
  const summary = await (mode === 'stdio' ? runStdio(values) : runHTTP(values));
  step = 'done';
  report({ ok: true, ...summary });
  process.exit(0);
} catch (err) {
  fail(step, err?.stack ?? String(err));
}
