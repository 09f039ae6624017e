// Sale floor, middle hop: a gRPC server taking batch calls (a JSON array of sales, as ticketing
// takes the gateway's issuance calls, decision 0058) and passing their sales on to the last hop
// (port in argv) in batches, as ticketing sends catalog its holds (decision 0054): the sales that
// arrive while one batch is on its way go together in the next, as one call carrying their
// number. Each sale is answered with its batch's reply. Prints its port once listening.
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
  const units = batch.reduce((sum, { sales }) => sum + sales, 0);
  catalog.call(Buffer.from(String(units)), (error, reply) => {
    sending = false;
    for (const { callback } of batch) callback(error, reply);
    sendWaiting();
  });
}

const server = new Server();
server.addService(rawUnary, {
  call: (call, callback) => {
    const sales = JSON.parse(call.request.toString()).length;
    waiting.push({ sales, callback: (error, reply) => callback(error, error ? null : Buffer.from(`[${Array(sales).fill(reply.toString()).join(',')}]`)) });
    queueMicrotask(sendWaiting);
  },
});
server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) => {
  if (error) throw error;
  console.log(port);
});
process.on('SIGTERM', () => server.tryShutdown(() => process.exit(0)));
