/**
 * The ops console's HTTP server (fastify): server-rendered pages over src/client, a token on every request (header or
 * cookie set at login), CSRF-protected POST forms that send the human signals and project updates, and a read-only
 * mode with a banner while Temporal does not answer (the last data seen is shown). Cookies, form bodies and CSRF are
 * the maintained fastify plugins', not ours.
 */
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import type { Client } from '@temporalio/client';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Logger as Pino } from 'pino';
import { z } from 'zod';
import {
  describeWorkflow,
  getLoopStatus,
  getProjectTasks,
  projectChildGates,
  listLoops,
  listProjects,
  signalLoop,
  unblockTasks,
  type LoopSummary,
  type ProjectSummary,
} from '../client';
import { WorkflowTypes } from '../core/constants';
import type { DecisionPayload, SignalName } from '../core/loop-machine';
import type { LoopState } from '../core/loop-types';
import type { ProjectState } from '../core/project-machine';
import { rootLogger } from '../telemetry/logger';
import { TemporalUnreachableError } from './errors';
import type { ChildGate } from '../core/child-gates';
import type { LoopFlag } from '../core/stats';
import { loopFlags } from '../state/flags';
import { errorPage, loginPage, loopPage, loopsPage, projectPage, type LoopFilters, type PageContext } from './pages';

/** Cookie holding the token after login. */
export const TOKEN_COOKIE = 'ralph_token';
/** Cookie holding the operator's name (prefills "decided by"). */
export const OPERATOR_COOKIE = 'ralph_operator';
const FLASH_COOKIE = 'ralph_flash';

/** Options of {@link buildConsole}. */
export interface ConsoleOptions {
  /** A connected client, or a function that connects (called again after a failure). */
  client: () => Promise<Client>;
  token: string;
  /** `Secure` on cookies (default true; browsers accept Secure cookies from http://localhost and 127.0.0.1). */
  secureCookies?: boolean;
  /** How long an action waits for the loop to record the signal before answering (default 5 s). */
  confirmMs?: number;
  /** Longest wait for one Temporal call before the console treats the server as unreachable (default 5 s). */
  temporalTimeoutMs?: number;
  logger?: Pino;
}

/** Whether an error means "Temporal did not answer" (as opposed to a domain error such as an unknown loop). */
export function isUnreachable(e: unknown): boolean {
  const err = e as { name?: string; message?: string; cause?: { code?: number } };
  if (err?.name === 'NoServerError' || err?.name === 'TemporalUnreachableError') return true;
  if (err?.name === 'ServiceError' && (err.cause?.code === 14 || err.cause?.code === 4)) return true;
  return /UNAVAILABLE|ECONNREFUSED|DEADLINE_EXCEEDED|No connection established|timed out talking to Temporal/i.test(
    err?.message ?? '',
  );
}

const sha = (s: string): Buffer => createHash('sha256').update(s).digest();
/** Compares tokens in constant time (hashes first, so lengths never leak). */
const sameToken = (a: string, b: string): boolean => timingSafeEqual(sha(a), sha(b));

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Builds the console app (not listening yet: {@link startConsole} does that; tests may `inject`). */
export async function buildConsole(o: ConsoleOptions): Promise<FastifyInstance> {
  const log = o.logger ?? rootLogger().child({ component: 'console' });
  const secure = o.secureCookies ?? true;
  const timeoutMs = o.temporalTimeoutMs ?? 5000;
  const app = Fastify({ logger: false, trustProxy: false, bodyLimit: 64 * 1024 });
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  await app.register(fastifyCsrf, {
    sessionPlugin: '@fastify/cookie',
    cookieOpts: { path: '/', sameSite: 'strict', httpOnly: true, secure },
  });

  const c: ConsoleParts = { o, log, secure, app, ...temporalAccess(o, log, timeoutMs), ...webHelpers(secure) };
  registerAuth(c);
  registerPages(c);
  registerActions(c);
  app.setNotFoundHandler((req, reply) =>
    c.sendHtml(reply, errorPage('not found', `nothing at ${req.url.split('?')[0]}`, {}), 404),
  );
  return app;
}

/** What the route groups share: the options, the log, the app, Temporal access and the page helpers. */
interface ConsoleParts extends ReturnType<typeof temporalAccess>, ReturnType<typeof webHelpers> {
  o: ConsoleOptions;
  log: Pino;
  secure: boolean;
  app: FastifyInstance;
}

/** Temporal access: one client, reconnected after a failure; the last good answer of each read is cached. */
function temporalAccess(o: ConsoleOptions, log: Pino, timeoutMs: number) {
  let client: Client | undefined;
  let unreachable: { since: string; error: string } | undefined;
  const cache = new Map<string, { at: string; value: unknown }>();
  const withClient = async <T>(fn: (c: Client) => Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TemporalUnreachableError('timed out talking to Temporal')), timeoutMs);
    });
    try {
      return await Promise.race([
        (async () => {
          client ??= await o.client();
          return fn(client);
        })(),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  };
  /** A read: fresh when Temporal answers, else the cached value with the page marked unreachable. */
  const read = async <T>(
    key: string,
    fn: (c: Client) => Promise<T>,
    ctx: PageContext,
  ): Promise<{ value?: T; ctx: PageContext }> => {
    try {
      const value = await withClient(fn);
      cache.set(key, { at: new Date().toISOString(), value });
      if (cache.size > 500) cache.delete(cache.keys().next().value as string);
      if (unreachable) log.info({ event: 'temporal.reachable' }, 'Temporal answers again');
      unreachable = undefined;
      return { value, ctx };
    } catch (e) {
      if (!isUnreachable(e)) throw e;
      if (!unreachable) {
        unreachable = { since: new Date().toISOString(), error: (e as Error).message.split('\n')[0].slice(0, 200) };
        log.warn({ event: 'temporal.unreachable', err: unreachable.error }, 'Temporal is unreachable');
      }
      const hit = cache.get(key);
      return {
        value: hit?.value as T | undefined,
        ctx: { ...ctx, unreachable: { ...unreachable, cachedAt: hit?.at } },
      };
    }
  };

  return { withClient, read };
}

/** The page helpers: the page context (CSRF token, operator, flash message), the flash cookie, HTML replies. */
function webHelpers(secure: boolean) {
  const pageCtx = (req: FastifyRequest, reply: FastifyReply): PageContext => {
    const flashRaw = req.cookies[FLASH_COOKIE];
    let flash: PageContext['flash'];
    if (flashRaw) {
      try {
        flash = JSON.parse(flashRaw) as PageContext['flash'];
      } catch {
        flash = undefined;
      }
      reply.clearCookie(FLASH_COOKIE, { path: '/' });
    }
    return { csrf: reply.generateCsrf(), operator: req.cookies[OPERATOR_COOKIE], flash };
  };
  const setFlash = (reply: FastifyReply, ok: boolean, text: string): void => {
    reply.setCookie(FLASH_COOKIE, JSON.stringify({ ok, text }), {
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      secure,
      maxAge: 60,
    });
  };
  const sendHtml = (reply: FastifyReply, body: string, code = 200): FastifyReply =>
    reply
      .code(code)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-frame-options', 'DENY')
      .header(
        'content-security-policy',
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'",
      )
      .send(body);

  return { pageCtx, setFlash, sendHtml };
}

/** Login, logout, and the token every other request carries. */
function registerAuth({ o, log, secure, app, sendHtml }: ConsoleParts): void {
  // Every request but the login page carries the token: a header (scripts) or the cookie set at login (browsers).
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0];
    if (path === '/login') return;
    const auth = req.headers.authorization;
    const presented =
      (auth?.startsWith('Bearer ') ? auth.slice(7) : undefined) ??
      (typeof req.headers['x-ralph-token'] === 'string' ? req.headers['x-ralph-token'] : undefined) ??
      req.cookies[TOKEN_COOKIE];
    if (presented && sameToken(presented, o.token)) return;
    log.warn({ event: 'console.refused', ip: req.ip, path, method: req.method }, 'request without a valid token');
    if ((req.headers.accept ?? '').includes('text/html'))
      return sendHtml(reply, loginPage({ csrf: reply.generateCsrf(), error: 'a console token is required' }), 401);
    return reply.code(401).send({ error: 'a console token is required: Authorization: Bearer <token>' });
  });

  app.get('/login', async (_req, reply) => sendHtml(reply, loginPage({ csrf: reply.generateCsrf() })));

  const Login = z.object({ token: z.string().min(1), operator: z.string().trim().min(1).max(100), _csrf: z.string() });
  app.post('/login', { preHandler: app.csrfProtection }, async (req, reply) => {
    const body = Login.safeParse(req.body);
    if (!body.success || !sameToken(body.data.token, o.token)) {
      log.warn({ event: 'console.login_failed', ip: req.ip }, 'login with a wrong token');
      return sendHtml(reply, loginPage({ csrf: reply.generateCsrf(), error: 'wrong token' }), 401);
    }
    const cookie = { path: '/', httpOnly: true, sameSite: 'strict' as const, secure };
    reply.setCookie(TOKEN_COOKIE, o.token, cookie);
    reply.setCookie(OPERATOR_COOKIE, body.data.operator, cookie);
    log.info({ event: 'console.login', operator: body.data.operator, ip: req.ip }, 'operator logged in');
    return reply.redirect('/', 303);
  });

  app.post('/logout', { preHandler: app.csrfProtection }, async (_req, reply) => {
    reply.clearCookie(TOKEN_COOKIE, { path: '/' });
    reply.clearCookie(OPERATOR_COOKIE, { path: '/' });
    return reply.redirect('/login', 303);
  });
}

/** The read-only pages: the loop list, a loop, a project. */
function registerPages({ app, read, pageCtx, sendHtml }: ConsoleParts): void {
  const Filters = z.object({
    status: z
      .string()
      .regex(/^[a-z_]*$/)
      .optional(),
    agent: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]*$/)
      .optional(),
    awaiting: z.string().optional(),
  });
  app.get('/', async (req, reply) => {
    const q = Filters.safeParse(req.query);
    const f: LoopFilters = q.success
      ? { status: q.data.status || undefined, agent: q.data.agent || undefined, awaiting: q.data.awaiting === '1' }
      : {};
    const key = `list:${JSON.stringify(f)}`;
    const r = await read(
      key,
      async (c) => {
        const [loops, projects] = await Promise.all([
          listLoops(c, { status: f.status, agent: f.agent, awaitingHuman: f.awaiting, limit: 200 }),
          listProjects(c, { limit: 50 }),
        ]);
        return { loops, projects };
      },
      { ...pageCtx(req, reply), refresh: 10 },
    );
    const v = r.value as { loops: LoopSummary[]; projects: ProjectSummary[] } | undefined;
    return sendHtml(reply, loopsPage(v?.loops ?? [], v?.projects ?? [], f, r.ctx));
  });

  app.get<{ Params: { id: string } }>('/loops/:id', async (req, reply) => {
    const id = req.params.id;
    try {
      const r = await read(
        `loop:${id}`,
        async (c) => {
          const d = await describeWorkflow(c, id);
          const state = await getLoopStatus(c, id);
          return { state, status: d.status, flags: loopFlags(state) };
        },
        { ...pageCtx(req, reply), refresh: 5 },
      );
      const v = r.value as { state: LoopState; status: string; flags?: LoopFlag[] } | undefined;
      if (!v) return sendHtml(reply, errorPage('unavailable', `loop ${id}: nothing cached yet`, r.ctx), 503);
      return sendHtml(reply, loopPage(v.state, v.status, r.ctx, v.flags));
    } catch (e) {
      return sendHtml(reply, errorPage('not found', (e as Error).message, pageCtx(req, reply)), 404);
    }
  });

  app.get<{ Params: { id: string } }>('/projects/:id', async (req, reply) => {
    const id = req.params.id;
    try {
      const r = await read(
        `project:${id}`,
        async (c) => {
          const d = await describeWorkflow(c, id);
          if (d.type !== WorkflowTypes.ralphProject) throw new Error(`"${id}" is a ${d.type}, not a project`);
          const state = await getProjectTasks(c, id);
          return { state, status: d.status, childGates: await projectChildGates(c, state) };
        },
        { ...pageCtx(req, reply), refresh: 10 },
      );
      const v = r.value as { state: ProjectState; status: string; childGates?: ChildGate[] } | undefined;
      if (!v) return sendHtml(reply, errorPage('unavailable', `project ${id}: nothing cached yet`, r.ctx), 503);
      return sendHtml(reply, projectPage(v.state, v.status, r.ctx, v.childGates ?? []));
    } catch (e) {
      return sendHtml(reply, errorPage('not found', (e as Error).message, pageCtx(req, reply)), 404);
    }
  });
}

/** The actions: approve, reject, abort or answer at a loop's gate (confirmed from the loop's own record), unblock a task. */
function registerActions(c: ConsoleParts): void {
  registerDecisions(c);
  registerUnblock(c);
}

/** approve, reject, abort or answer at a loop's gate, confirmed from the loop's own record of the signal. */
function registerDecisions(c: ConsoleParts): void {
  const { log, app, withClient, pageCtx, setFlash, sendHtml } = c;
  const Decision = z.object({
    by: z.string().trim().min(1, 'say who decides').max(100),
    reason: z.string().trim().max(2000).optional(),
    guidance: z.string().trim().max(10_000).optional(),
    extraIterations: z.string().regex(/^\d*$/, 'extra iterations must be a whole number').optional(),
    text: z.string().trim().max(4000, 'the answer is limited to 4000 characters').optional(),
    gateId: z.string().max(200).optional(),
    _csrf: z.string(),
  });
  app.post<{ Params: { id: string; action: string } }>(
    '/loops/:id/:action',
    { preHandler: app.csrfProtection },
    async (req, reply) => {
      const { id, action } = req.params;
      const back = `/loops/${encodeURIComponent(id)}`;
      if (!['approve', 'reject', 'abort', 'answer'].includes(action))
        return sendHtml(reply, errorPage('not found', `no action ${action}`, pageCtx(req, reply)), 404);
      const body = Decision.safeParse(req.body);
      if (!body.success) {
        setFlash(reply, false, `${action} not sent: ${body.error.issues.map((i) => i.message).join('; ')}`);
        return reply.redirect(back, 303);
      }
      const b = body.data;
      if (action === 'answer' && !b.text) {
        setFlash(reply, false, 'answer not sent: write the answer to the question');
        return reply.redirect(back, 303);
      }
      const by = `${b.by} (console)`;
      const payload: DecisionPayload = {
        by,
        reason: b.reason || undefined,
        guidance: b.guidance || undefined,
        extraIterations: b.extraIterations ? Number(b.extraIterations) : undefined,
        gateId: b.gateId || undefined,
        text: b.text || undefined,
        requestId: randomUUID(),
      };
      const name = action as SignalName;
      const fields = { event: 'console.action', action, loopId: id, by, gateId: payload.gateId, ip: req.ip };
      try {
        const sentAt = Date.now();
        await withClient((c) => signalLoop(c, id, name, payload));
        log.info(fields, `${action} sent to ${id} by ${by}`);
        const seen = await confirm(c, id, name, by, sentAt);
        if (!seen) setFlash(reply, true, `${action} sent by ${by}; no worker has processed it yet`);
        else
          setFlash(
            reply,
            seen.applied,
            `${action} by ${by}: ${seen.applied ? 'applied' : 'not applied'} (${seen.note})` +
              (seen.state ? ` · loop now ${seen.state.status}, iteration ${seen.state.iteration}` : ''),
          );
      } catch (e) {
        log.warn({ ...fields, err: (e as Error).message }, `${action} failed`);
        setFlash(
          reply,
          false,
          isUnreachable(e)
            ? `${action} not sent: Temporal is unreachable; try again when it answers`
            : `${action} not sent: ${(e as Error).message}`,
        );
      }
      return reply.redirect(back, 303);
    },
  );
}

/** Waits for the loop to record the signal (the loop stamps it with workflow time, after `sentAt`). */
async function confirm(
  { o, withClient }: ConsoleParts,
  id: string,
  name: SignalName,
  by: string,
  sentAt: number,
): Promise<{ applied: boolean; note: string; state?: LoopState } | undefined> {
  const end = Date.now() + (o.confirmMs ?? 5000);
  while (Date.now() < end) {
    const state = await withClient((c) => getLoopStatus(c, id)).catch(() => undefined);
    const event = state?.signals
      .slice()
      .reverse()
      .find((s) => s.name === name && s.by === by && Date.parse(s.at) >= sentAt - 2000);
    if (event) return { applied: event.applied, note: event.note, state };
    if (state?.result?.by === by) return { applied: true, note: state.result.reason, state };
    await sleep(200);
  }
  return undefined;
}

/** Unblocks a project's task (the `unblock` update), with the project's answer as the flash message. */
function registerUnblock({ log, app, withClient, setFlash }: ConsoleParts): void {
  const Unblock = z.object({
    taskId: z.string().min(1).max(200),
    by: z.string().trim().min(1, 'say who decides').max(100),
    reason: z.string().trim().max(2000).optional(),
    timeoutSeconds: z.string().regex(/^\d*$/, 'timeout must be a whole number of seconds').optional(),
    _csrf: z.string(),
  });
  app.post<{ Params: { id: string } }>(
    '/projects/:id/unblock',
    { preHandler: app.csrfProtection },
    async (req, reply) => {
      const id = req.params.id;
      const back = `/projects/${encodeURIComponent(id)}`;
      const body = Unblock.safeParse(req.body);
      if (!body.success) {
        setFlash(reply, false, `unblock not sent: ${body.error.issues.map((i) => i.message).join('; ')}`);
        return reply.redirect(back, 303);
      }
      const b = body.data;
      const by = `${b.by} (console)`;
      try {
        const r = await withClient((c) =>
          unblockTasks(c, id, {
            taskIds: [b.taskId],
            by,
            reason: b.reason || undefined,
            timeoutSeconds: b.timeoutSeconds ? Number(b.timeoutSeconds) : undefined,
          }),
        );
        log.info({ event: 'console.action', action: 'unblock', projectId: id, taskId: b.taskId, by }, r.note);
        setFlash(reply, true, `unblock by ${by}: ${r.note}`);
      } catch (e) {
        setFlash(reply, false, `unblock refused: ${(e as Error).message}`);
      }
      return reply.redirect(back, 303);
    },
  );
}

/** Addresses that only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Builds the console and listens; resolves with its URL and a close function. */
export async function startConsole(
  o: ConsoleOptions & { host: string; port: number },
): Promise<{ url: string; app: FastifyInstance; close(): Promise<void> }> {
  const app = await buildConsole(o);
  await app.listen({ host: o.host, port: o.port });
  const a = app.server.address() as AddressInfo;
  const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
  return { url: `http://${host}:${a.port}`, app, close: () => app.close() };
}
