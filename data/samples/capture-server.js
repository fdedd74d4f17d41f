// capture-server.js - the tiny loopback server the *-local-*.txt captures in
// this folder were made against (node capture-server.js PORT [STATUS]).
// Answers every request with a small JSON body and the given status (200 by
// default; 500 for the error captures).
const http = require('node:http');
const port = Number(process.argv[2] || 18080);
const status = Number(process.argv[3] || 200);
const body = JSON.stringify({ hello: 'world' });
http.createServer((req, res) => {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
}).listen(port, '127.0.0.1');
