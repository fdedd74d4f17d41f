const http = require('http');
let n = 0;
http.createServer((req, res) => {
  n++;
  if (req.url === '/mixed' && n % 10 === 0) { res.statusCode = 503; res.end('busy\n'); return; }
  res.setHeader('content-type', 'text/plain');
  res.end('hello world\n');
}).listen(18423, '127.0.0.1');
