/**
 * Responses a hostile image host may send, each with what the strict reader must make of it: the
 * error code it refuses with (at the head, or when the body is read), or the status and body it
 * reads. Used whole and one byte per write (strict-response.test.ts).
 */

export interface HostileCase {
  readonly name: string;
  readonly bytes: string;
  /** An error code, or `status body` as read. */
  readonly expected: string;
  readonly method?: 'GET' | 'HEAD';
}

const OK = 'HTTP/1.1 200 OK\r\n';
const longHeaders = (count: number, size: number) =>
  Array.from({ length: count }, (_, i) => `X-${i}: ${'v'.repeat(size)}\r\n`).join('');

const statusLines: HostileCase[] = [
  'HTTP/1.2 200 OK',
  'HTTP/2 200 OK',
  'HTTP/1.1 20 OK',
  'HTTP/1.1 2000 OK',
  'HTTP/1.1 200OK',
  'http/1.1 200 OK',
  'HTTP/1.1 200',
  ' HTTP/1.1 200 OK',
  'HTTP/1.1  200 OK',
  'HTTP/1.1 099 Low',
  'HTTP/1.1 600 High',
  'HTTP/1.1 101 Switching Protocols',
  'HTTP/1.1 200 O\x00K',
  'HTTP/1.1 200 O\x7fK',
  'ICY 200 OK',
].map((line) => ({
  name: `status line ${JSON.stringify(line)}`,
  bytes: `${line}\r\nContent-Length: 1\r\n\r\nx`,
  expected: 'HPE_INVALID_STATUS',
}));

const lineEnds: HostileCase[] = [
  {
    name: 'bare LF ends',
    bytes: 'HTTP/1.1 200 OK\nContent-Length: 1\n\nx',
    expected: 'HPE_CR_EXPECTED',
  },
  { name: 'bare LF in a value', bytes: `${OK}X: a\nb\r\n\r\n`, expected: 'HPE_CR_EXPECTED' },
  { name: 'bare CR in a value', bytes: `${OK}X: a\rb\r\n\r\n`, expected: 'HPE_LF_EXPECTED' },
  { name: 'CR CR LF', bytes: `${OK}X: a\r\r\n\r\n`, expected: 'HPE_LF_EXPECTED' },
  { name: 'head ending in LF LF', bytes: `${OK}X: a\r\n\n`, expected: 'HPE_CR_EXPECTED' },
];

const fields: HostileCase[] = [
  ['NUL in a value', 'X: a\x00b'],
  ['a control byte in a value', 'X: a\x01b'],
  ['DEL in a value', 'X: a\x7fb'],
  ['obs-fold', 'X: a\r\n  folded'],
  ['obs-fold with a tab', 'X: a\r\n\tfolded'],
  ['a space in a name', 'X Y: a'],
  ['a space before the colon', 'X : a'],
  ['a tab before the colon', 'X\t: a'],
  ['an empty name', ': a'],
  ['a separator in a name', '(X): a'],
  ['obs-text in a name', 'X\x80: a'],
  ['no colon', 'Xa'],
  ['NUL in a name', 'X\x00: a'],
].map(([name, line]) => ({
  name: name as string,
  bytes: `${OK}${line as string}\r\nContent-Length: 1\r\n\r\nx`,
  expected: 'HPE_INVALID_HEADER_TOKEN',
}));

const sizes: HostileCase[] = [
  {
    name: 'a head over 16 KB',
    bytes: `${OK}${longHeaders(17, 1000)}Content-Length: 1\r\n\r\nx`,
    expected: 'HPE_HEADER_OVERFLOW',
  },
  {
    name: 'one header line over 16 KB',
    bytes: `${OK}X: ${'v'.repeat(17 * 1024)}\r\n\r\n`,
    expected: 'HPE_HEADER_OVERFLOW',
  },
  {
    name: 'more than 128 header lines',
    bytes: `${OK}${longHeaders(129, 1)}Content-Length: 1\r\n\r\nx`,
    expected: 'HPE_HEADER_OVERFLOW',
  },
  {
    name: 'a head just under 16 KB',
    bytes: `${OK}${longHeaders(15, 1000)}Content-Length: 1\r\n\r\nx`,
    expected: '200 x',
  },
];

const lengths: HostileCase[] = [
  ...['1a', '-1', '+1', '0x1', '', '1 1', '1e3', '1.0', '9999999999999999'].map((value) => ({
    name: `Content-Length ${JSON.stringify(value)}`,
    bytes: `${OK}Content-Length: ${value}\r\n\r\nx`,
    expected: 'HPE_INVALID_CONTENT_LENGTH',
  })),
  {
    name: 'two Content-Lengths that disagree',
    bytes: `${OK}Content-Length: 1\r\nContent-Length: 2\r\n\r\nxy`,
    expected: 'HPE_UNEXPECTED_CONTENT_LENGTH',
  },
  ...['1, 2', '2, 2'].map((value) => ({
    name: `a Content-Length list ${JSON.stringify(value)}`,
    bytes: `${OK}Content-Length: ${value}\r\n\r\nxy`,
    expected: 'HPE_INVALID_CONTENT_LENGTH',
  })),
  {
    name: 'two Content-Lengths that agree',
    bytes: `${OK}Content-Length: 2\r\nContent-Length: 2\r\n\r\nxy`,
    expected: '200 xy',
  },
  {
    name: 'bytes past the Content-Length',
    bytes: `${OK}Content-Length: 2\r\n\r\nxyz`,
    expected: '200 xy',
  },
];

const codings: HostileCase[] = [
  ...['gzip', 'chunked, gzip', 'gzip, chunked', 'identity', 'chunked, chunked', 'chunked;q=1'].map(
    (value) => ({
      name: `Transfer-Encoding ${JSON.stringify(value)}`,
      bytes: `${OK}Transfer-Encoding: ${value}\r\n\r\n1\r\nx\r\n0\r\n\r\n`,
      expected: 'HPE_INVALID_TRANSFER_ENCODING',
    }),
  ),
  {
    name: 'two Transfer-Encoding headers',
    bytes: `${OK}Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    expected: 'HPE_INVALID_TRANSFER_ENCODING',
  },
  {
    name: 'Transfer-Encoding in HTTP/1.0',
    bytes: 'HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n',
    expected: 'HPE_INVALID_TRANSFER_ENCODING',
  },
  {
    name: 'Transfer-Encoding with Content-Length',
    bytes: `${OK}Transfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\n1\r\nx\r\n0\r\n\r\n`,
    expected: 'HPE_UNEXPECTED_CONTENT_LENGTH',
  },
  {
    name: 'Content-Length with Transfer-Encoding',
    bytes: `${OK}Content-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n`,
    expected: 'HPE_UNEXPECTED_CONTENT_LENGTH',
  },
];

const CHUNKED = `${OK}Transfer-Encoding: chunked\r\n\r\n`;
const chunks: HostileCase[] = [
  ...[
    ...['zz', '-1', '', ' 1', '0x1', '1 2', 'fffffffffffffffff', '20000000000000', '1;a\x00b'],
    // Whitespace after the digits with no extension after it: not RFC 9112's, refused by llhttp.
    ...['1 ', '1\t', '1 \t '],
  ].map((size) => ({
    name: `chunk size ${JSON.stringify(size)}`,
    bytes: `${CHUNKED}${size}\r\nx\r\n0\r\n\r\n`,
    expected: 'HPE_INVALID_CHUNK_SIZE',
  })),
  {
    name: 'chunk extensions over 4 KB',
    bytes: `${CHUNKED}1;${'e'.repeat(5000)}\r\nx\r\n0\r\n\r\n`,
    expected: 'HPE_CHUNK_EXTENSIONS_OVERFLOW',
  },
  {
    name: 'a chunk longer than its size',
    bytes: `${CHUNKED}1\r\nxy\r\n0\r\n\r\n`,
    expected: 'HPE_STRICT',
  },
  { name: 'a chunk ended by LF', bytes: `${CHUNKED}1\r\nx\n0\r\n\r\n`, expected: 'HPE_STRICT' },
  {
    name: 'a size line ended by LF',
    bytes: `${CHUNKED}1\nx\r\n0\r\n\r\n`,
    expected: 'HPE_CR_EXPECTED',
  },
  {
    name: 'trailers over 16 KB',
    bytes: `${CHUNKED}1\r\nx\r\n0\r\n${longHeaders(17, 1000)}\r\n`,
    expected: 'HPE_HEADER_OVERFLOW',
  },
  {
    name: 'a trailer that is not a header',
    bytes: `${CHUNKED}1\r\nx\r\n0\r\nbad trailer\r\n\r\n`,
    expected: 'HPE_INVALID_HEADER_TOKEN',
  },
  {
    // The chunks framed the body; a trailer is never read as framing (llhttp refuses these).
    name: 'trailers that name a length and a coding',
    bytes: `${CHUNKED}1\r\nx\r\n0\r\nContent-Length: 9\r\nTransfer-Encoding: gzip\r\n\r\n`,
    expected: '200 x',
  },
  {
    name: 'chunks with extensions, leading zeros and trailers',
    bytes: `${CHUNKED}001;a=b;c="d e"\r\nx\r\n2 ;e\r\nyz\r\n0\r\nX-T: 1\r\n\r\n`,
    expected: '200 xyz',
  },
];

const interim: HostileCase[] = [
  {
    name: 'a 100 Continue first',
    bytes: `HTTP/1.1 100 Continue\r\n\r\n${OK}Content-Length: 1\r\n\r\nx`,
    expected: '200 x',
  },
  {
    name: 'a 103 with headers first',
    bytes: `HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n${OK}Content-Length: 1\r\n\r\nx`,
    expected: '200 x',
  },
  {
    name: 'nine interim answers',
    bytes: `${'HTTP/1.1 100 Continue\r\n\r\n'.repeat(9)}${OK}Content-Length: 1\r\n\r\nx`,
    expected: 'HPE_HEADER_OVERFLOW',
  },
  {
    name: 'an interim answer that names a length and chunks: it has no body',
    bytes: `HTTP/1.1 100 Continue\r\nContent-Length: 5\r\n\r\n${OK}Content-Length: 1\r\n\r\nx`,
    expected: '200 x',
  },
  {
    // llhttp reads this as a whole answer with status 100; there is no answer in it.
    name: 'an interim answer, then the close',
    bytes: 'HTTP/1.1 100 Continue\r\n\r\n',
    expected: 'HPE_INVALID_EOF_STATE',
  },
  {
    name: 'interim answers over 16 KB together',
    bytes: `${`HTTP/1.1 103 Early\r\n${longHeaders(3, 1500)}\r\n`.repeat(4)}${OK}Content-Length: 1\r\n\r\nx`,
    expected: 'HPE_HEADER_OVERFLOW',
  },
];

const ends: HostileCase[] = [
  { name: 'closed before a byte', bytes: '', expected: 'ECONNRESET' },
  { name: 'closed in the status line', bytes: 'HTTP/1.1 20', expected: 'HPE_INVALID_EOF_STATE' },
  { name: 'closed in the headers', bytes: `${OK}Content-Le`, expected: 'HPE_INVALID_EOF_STATE' },
  {
    name: 'a body short of its length',
    bytes: `${OK}Content-Length: 10\r\n\r\nxyz`,
    expected: 'ERR_STREAM_PREMATURE_CLOSE',
  },
  {
    name: 'chunks without the last',
    bytes: `${CHUNKED}1\r\nx\r\n`,
    expected: 'ERR_STREAM_PREMATURE_CLOSE',
  },
  { name: 'closed in a chunk', bytes: `${CHUNKED}5\r\nxy`, expected: 'ERR_STREAM_PREMATURE_CLOSE' },
  {
    name: 'closed in a size line',
    bytes: `${CHUNKED}1\r\nx\r\n1`,
    expected: 'ERR_STREAM_PREMATURE_CLOSE',
  },
  {
    name: 'closed in the trailers',
    bytes: `${CHUNKED}0\r\nX-T: 1\r\n`,
    expected: 'ERR_STREAM_PREMATURE_CLOSE',
  },
  {
    name: 'a body framed by the close',
    bytes: `${OK}X: 1\r\n\r\nall of it`,
    expected: '200 all of it',
  },
  { name: 'an empty body framed by the close', bytes: `${OK}\r\n`, expected: '200 ' },
];

const noBody: HostileCase[] = [
  {
    name: 'a 204 with bytes after it',
    bytes: 'HTTP/1.1 204 No Content\r\n\r\nxyz',
    expected: '204 ',
  },
  {
    name: 'a 304 with a length',
    bytes: 'HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n',
    expected: '304 ',
  },
  {
    name: 'a 204 declared chunked, with bytes after it',
    bytes: 'HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n',
    expected: '204 ',
  },
  {
    name: 'a HEAD answered chunked',
    bytes: `${OK}Transfer-Encoding: chunked\r\n\r\n`,
    expected: '200 ',
    method: 'HEAD',
  },
  {
    name: 'a HEAD answered with a length',
    bytes: `${OK}Content-Length: 5\r\n\r\n`,
    expected: '200 ',
    method: 'HEAD',
  },
];

export const HOSTILE_CASES: readonly HostileCase[] = [
  ...statusLines,
  ...lineEnds,
  ...fields,
  ...sizes,
  ...lengths,
  ...codings,
  ...chunks,
  ...interim,
  ...ends,
  ...noBody,
];
