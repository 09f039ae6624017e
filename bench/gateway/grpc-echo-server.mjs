// Floor baseline, back end: a gRPC server (grpc-js, no protobuf, no interceptors) whose one
// unary method answers a fixed event-sized payload at once. Prints its port once listening.
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { rawUnary } from '../support/raw-unary-definition.mjs';

const payload = Buffer.from(JSON.stringify({ id: 'evt_bare', object: 'event', name: 'x'.repeat(300) }));
const server = new Server();
server.addService(rawUnary, { call: (_call, callback) => callback(null, payload) });
server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) => {
  if (error) throw error;
  console.log(port);
});
process.on('SIGTERM', () => server.tryShutdown(() => process.exit(0)));
