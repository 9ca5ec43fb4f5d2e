import { startServer, type Running } from '../../api/server.ts';
import { TestApi } from './api.ts';
import { TEST_ADMIN_PASSWORD } from './template.ts';

/** The server as production starts it (api/server.ts), on the environment a test gives it, with a signed-in administrator. */
export interface ProductionServer {
  server: Running;
  api: TestApi;
  /** stops the server and puts the environment back as it was */
  close(): Promise<void>;
}

/**
 * Starts the server in this process with `env` set (DATABASE_URL, DATABASE_READ_URL, …: what it
 * reads at its start), its notification worker off, on a free port of 127.0.0.1.
 */
export async function startProductionServer(env: Record<string, string>): Promise<ProductionServer> {
  const vars = { ECOFOND_NOTIFY_WORKER: 'off', ...env };
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const restore = () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  Object.assign(process.env, vars);
  let server: Running;
  try {
    server = await startServer({ port: 0, host: '127.0.0.1', log: () => undefined });
  } catch (err) {
    restore();
    throw err;
  }
  const api = new TestApi(server.db, server.model, server.server);
  const close = async () => {
    try {
      await server.close();
    } finally {
      restore();
    }
  };
  try {
    api.adminToken = await api.login('admin', TEST_ADMIN_PASSWORD);
  } catch (err) {
    await close();
    throw err;
  }
  return { server, api, close };
}
