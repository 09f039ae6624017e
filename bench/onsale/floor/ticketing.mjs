// Sale floor, middle hop: a gRPC server that passes the calls on to the last hop (port in argv)
// in batches, as ticketing sends catalog its holds (decision 0054): the calls that arrive while
// one batch is on its way go together in the next, as one call carrying their number. Each call
// is answered with its batch's reply. Prints its port once listening.
import { credentials, makeGenericClientConstructor, Server, ServerCredentials } from '@grpc/grpc-js';
import { rawUnary } from '../../support/raw-unary-definition.mjs';

const Client = makeGenericClientConstructor(rawUnary, 'Raw');
const catalog = new Client(`127.0.0.1:${process.argv[2]}`, credentials.createInsecure());
let waiting = [];
let sending = false;

function sendWaiting() {
  if (sending || waiting.length === 0) return;
  const batch = waiting;
  waiting = [];
  sending = true;
  catalog.call(Buffer.from(String(batch.length)), (error, reply) => {
    sending = false;
    for (const callback of batch) callback(error, reply);
    sendWaiting();
  });
}

const server = new Server();
server.addService(rawUnary, {
  call: (_call, callback) => {
    waiting.push(callback);
    queueMicrotask(sendWaiting);
  },
});
server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) => {
  if (error) throw error;
  console.log(port);
});
process.on('SIGTERM', () => server.tryShutdown(() => process.exit(0)));
