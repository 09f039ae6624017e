// The baseline: bare Node HTTP answering a fixed JSON body, in its own process like the gateway.
// Prints its port once listening.
import { createServer } from 'node:http';

const body = JSON.stringify({ id: 'acct_bare', object: 'account', mode: 'test' });
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end(body);
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
