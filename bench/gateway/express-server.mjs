// Floor baseline: Express 5 with one route and nothing else, answering the bare server's body.
// It shows what the framework alone costs next to bare Node. Configured as the gateway is (no ETag,
// no X-Powered-By), so the floor is the one the gateway stands on. Prints its port once listening.
import express from 'express';

const body = { id: 'acct_bare', object: 'account', mode: 'test' };
const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.get('/', (_request, response) => {
  response.json(body);
});
const server = app.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
