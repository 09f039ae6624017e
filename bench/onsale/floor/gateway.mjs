// Sale floor, front: Express 5 with JSON bodies and the issuance route, passing the bodies of the
// requests made in one turn of the event loop to the middle hop (port in argv) as one gRPC call,
// as the gateway sends ticketing its issuance calls (decision 0058), and answering each request
// 201 with its item of the reply. With the two hops behind it, the least a sale shaped as ours
// can cost with this stack: no authentication, limits, validation, records, codes, events or
// logs. Prints its port once listening.
import express from 'express';
import { credentials, makeGenericClientConstructor } from '@grpc/grpc-js';
import { rawUnary } from '../../support/raw-unary-definition.mjs';

const Client = makeGenericClientConstructor(rawUnary, 'Raw');
const ticketing = new Client(`127.0.0.1:${process.argv[2]}`, credentials.createInsecure());
let waiting = [];

function sendWaiting() {
  const batch = waiting;
  waiting = [];
  ticketing.call(Buffer.from(JSON.stringify(batch.map(({ body }) => body))), (error, reply) => {
    const items = error ? [] : JSON.parse(reply.toString());
    batch.forEach(({ response }, index) => {
      if (error) response.status(502).json({ error: error.message });
      else response.status(201).json(items[index]);
    });
  });
}

const app = express();
app.use(express.json());
app.post('/v1/events/:id/tickets', (request, response) => {
  if (waiting.length === 0) setImmediate(sendWaiting);
  waiting.push({ body: { event_id: request.params.id, ...request.body }, response });
});
const server = app.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
