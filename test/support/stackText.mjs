// Shared by the TypeScript test tiers and the plain-Node e2e (which cannot import .ts): reading the
// KEY=VALUE lines node-stack.sh and real-cluster.sh print, and picking a free loopback port.
import { createServer } from 'node:net';

/** KEY=VALUE lines (as node-stack.sh and real-cluster.sh print them and keep them in their env file). */
export function parseKeyValueLines(text) {
  const raw = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) raw[match[1]] = match[2];
  }
  return raw;
}

/** A port on 127.0.0.1 that was free a moment ago (listen on :0, read it, close). */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (typeof address !== 'object' || address === null) {
        server.close();
        reject(new Error('freePort: the listener has no port'));
        return;
      }
      server.close((err) => (err ? reject(err) : resolvePort(address.port)));
    });
  });
}
