import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 770:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {

module.exports = __nccwpck_require__(218);


/***/ }),

/***/ 218:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {

var __webpack_unused_export__;


var net = __nccwpck_require__(278);
var tls = __nccwpck_require__(756);
var http = __nccwpck_require__(611);
var https = __nccwpck_require__(692);
var events = __nccwpck_require__(434);
var assert = __nccwpck_require__(613);
var util = __nccwpck_require__(23);


exports.httpOverHttp = httpOverHttp;
exports.httpsOverHttp = httpsOverHttp;
exports.httpOverHttps = httpOverHttps;
exports.httpsOverHttps = httpsOverHttps;


function httpOverHttp(options) {
  var agent = new TunnelingAgent(options);
  agent.request = http.request;
  return agent;
}

function httpsOverHttp(options) {
  var agent = new TunnelingAgent(options);
  agent.request = http.request;
  agent.createSocket = createSecureSocket;
  agent.defaultPort = 443;
  return agent;
}

function httpOverHttps(options) {
  var agent = new TunnelingAgent(options);
  agent.request = https.request;
  return agent;
}

function httpsOverHttps(options) {
  var agent = new TunnelingAgent(options);
  agent.request = https.request;
  agent.createSocket = createSecureSocket;
  agent.defaultPort = 443;
  return agent;
}


function TunnelingAgent(options) {
  var self = this;
  self.options = options || {};
  self.proxyOptions = self.options.proxy || {};
  self.maxSockets = self.options.maxSockets || http.Agent.defaultMaxSockets;
  self.requests = [];
  self.sockets = [];

  self.on('free', function onFree(socket, host, port, localAddress) {
    var options = toOptions(host, port, localAddress);
    for (var i = 0, len = self.requests.length; i < len; ++i) {
      var pending = self.requests[i];
      if (pending.host === options.host && pending.port === options.port) {
        // Detect the request to connect same origin server,
        // reuse the connection.
        self.requests.splice(i, 1);
        pending.request.onSocket(socket);
        return;
      }
    }
    socket.destroy();
    self.removeSocket(socket);
  });
}
util.inherits(TunnelingAgent, events.EventEmitter);

TunnelingAgent.prototype.addRequest = function addRequest(req, host, port, localAddress) {
  var self = this;
  var options = mergeOptions({request: req}, self.options, toOptions(host, port, localAddress));

  if (self.sockets.length >= this.maxSockets) {
    // We are over limit so we'll add it to the queue.
    self.requests.push(options);
    return;
  }

  // If we are under maxSockets create a new one.
  self.createSocket(options, function(socket) {
    socket.on('free', onFree);
    socket.on('close', onCloseOrRemove);
    socket.on('agentRemove', onCloseOrRemove);
    req.onSocket(socket);

    function onFree() {
      self.emit('free', socket, options);
    }

    function onCloseOrRemove(err) {
      self.removeSocket(socket);
      socket.removeListener('free', onFree);
      socket.removeListener('close', onCloseOrRemove);
      socket.removeListener('agentRemove', onCloseOrRemove);
    }
  });
};

TunnelingAgent.prototype.createSocket = function createSocket(options, cb) {
  var self = this;
  var placeholder = {};
  self.sockets.push(placeholder);

  var connectOptions = mergeOptions({}, self.proxyOptions, {
    method: 'CONNECT',
    path: options.host + ':' + options.port,
    agent: false,
    headers: {
      host: options.host + ':' + options.port
    }
  });
  if (options.localAddress) {
    connectOptions.localAddress = options.localAddress;
  }
  if (connectOptions.proxyAuth) {
    connectOptions.headers = connectOptions.headers || {};
    connectOptions.headers['Proxy-Authorization'] = 'Basic ' +
        new Buffer(connectOptions.proxyAuth).toString('base64');
  }

  debug('making CONNECT request');
  var connectReq = self.request(connectOptions);
  connectReq.useChunkedEncodingByDefault = false; // for v0.6
  connectReq.once('response', onResponse); // for v0.6
  connectReq.once('upgrade', onUpgrade);   // for v0.6
  connectReq.once('connect', onConnect);   // for v0.7 or later
  connectReq.once('error', onError);
  connectReq.end();

  function onResponse(res) {
    // Very hacky. This is necessary to avoid http-parser leaks.
    res.upgrade = true;
  }

  function onUpgrade(res, socket, head) {
    // Hacky.
    process.nextTick(function() {
      onConnect(res, socket, head);
    });
  }

  function onConnect(res, socket, head) {
    connectReq.removeAllListeners();
    socket.removeAllListeners();

    if (res.statusCode !== 200) {
      debug('tunneling socket could not be established, statusCode=%d',
        res.statusCode);
      socket.destroy();
      var error = new Error('tunneling socket could not be established, ' +
        'statusCode=' + res.statusCode);
      error.code = 'ECONNRESET';
      options.request.emit('error', error);
      self.removeSocket(placeholder);
      return;
    }
    if (head.length > 0) {
      debug('got illegal response body from proxy');
      socket.destroy();
      var error = new Error('got illegal response body from proxy');
      error.code = 'ECONNRESET';
      options.request.emit('error', error);
      self.removeSocket(placeholder);
      return;
    }
    debug('tunneling connection has established');
    self.sockets[self.sockets.indexOf(placeholder)] = socket;
    return cb(socket);
  }

  function onError(cause) {
    connectReq.removeAllListeners();

    debug('tunneling socket could not be established, cause=%s\n',
          cause.message, cause.stack);
    var error = new Error('tunneling socket could not be established, ' +
                          'cause=' + cause.message);
    error.code = 'ECONNRESET';
    options.request.emit('error', error);
    self.removeSocket(placeholder);
  }
};

TunnelingAgent.prototype.removeSocket = function removeSocket(socket) {
  var pos = this.sockets.indexOf(socket)
  if (pos === -1) {
    return;
  }
  this.sockets.splice(pos, 1);

  var pending = this.requests.shift();
  if (pending) {
    // If we have pending requests and a socket gets closed a new one
    // needs to be created to take over in the pool for the one that closed.
    this.createSocket(pending, function(socket) {
      pending.request.onSocket(socket);
    });
  }
};

function createSecureSocket(options, cb) {
  var self = this;
  TunnelingAgent.prototype.createSocket.call(self, options, function(socket) {
    var hostHeader = options.request.getHeader('host');
    var tlsOptions = mergeOptions({}, self.options, {
      socket: socket,
      servername: hostHeader ? hostHeader.replace(/:.*$/, '') : options.host
    });

    // 0 is dummy port for v0.6
    var secureSocket = tls.connect(0, tlsOptions);
    self.sockets[self.sockets.indexOf(socket)] = secureSocket;
    cb(secureSocket);
  });
}


function toOptions(host, port, localAddress) {
  if (typeof host === 'string') { // since v0.10
    return {
      host: host,
      port: port,
      localAddress: localAddress
    };
  }
  return host; // for v0.11 or later
}

function mergeOptions(target) {
  for (var i = 1, len = arguments.length; i < len; ++i) {
    var overrides = arguments[i];
    if (typeof overrides === 'object') {
      var keys = Object.keys(overrides);
      for (var j = 0, keyLen = keys.length; j < keyLen; ++j) {
        var k = keys[j];
        if (overrides[k] !== undefined) {
          target[k] = overrides[k];
        }
      }
    }
  }
  return target;
}


var debug;
if (process.env.NODE_DEBUG && /\btunnel\b/.test(process.env.NODE_DEBUG)) {
  debug = function() {
    var args = Array.prototype.slice.call(arguments);
    if (typeof args[0] === 'string') {
      args[0] = 'TUNNEL: ' + args[0];
    } else {
      args.unshift('TUNNEL:');
    }
    console.error.apply(console, args);
  }
} else {
  debug = function() {};
}
__webpack_unused_export__ = debug; // for test


/***/ }),

/***/ 407:
/***/ ((module, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(module, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var _runner_github_runner_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(307);
/* harmony import */ var _main_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(410);


await (0,_main_js__WEBPACK_IMPORTED_MODULE_1__/* .run */ .e)(_runner_github_runner_js__WEBPACK_IMPORTED_MODULE_0__/* .githubRunner */ .O);

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 410:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  e: () => (/* binding */ run)
});

// UNUSED EXPORTS: failureMessage

// EXTERNAL MODULE: ./src/shared/errors.ts
var errors = __nccwpck_require__(382);
// EXTERNAL MODULE: ./src/shared/text.ts
var shared_text = __nccwpck_require__(646);
;// CONCATENATED MODULE: ./src/shared/records.ts

const PUBLIC_FIELDS = [
    'id',
    'name',
    'state',
    'mediatorId',
    'projectId',
    'createdBy',
    'createdByEmail',
    'createdAt',
    'revokedAt',
    'revokedBy',
];
const OUTPUT_FIELDS = [...PUBLIC_FIELDS];
function toRecord(value) {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
        return 'not an object';
    const fields = value;
    if (typeof fields.id !== 'string' || fields.id === '')
        return 'a record without an id';
    if (typeof fields.state !== 'string' || fields.state === '')
        return 'a record without a state';
    const record = { id: fields.id, state: fields.state };
    for (const field of PUBLIC_FIELDS) {
        const v = fields[field];
        if (typeof v === 'string')
            record[field] = v;
    }
    if (typeof fields.tokenValue === 'string' && fields.tokenValue.trim() !== '') {
        record.tokenValue = fields.tokenValue;
    }
    return record;
}
function publicJson(records) {
    return JSON.stringify(records, OUTPUT_FIELDS);
}
function nameAndId(token) {
    if (token.name === undefined)
        return `${NO_NAME} (${shortId(token)})`;
    return `${quoteName(token.name)} (${shortId(token)})`;
}
function quoteName(name) {
    return `'${(0,shared_text/* truncate */.xv)((0,shared_text/* oneLine */.TN)(name), 200)}'`;
}
const NO_NAME = '(a name that is not text)';
function shortId(token) {
    return (0,shared_text/* truncate */.xv)((0,shared_text/* oneLine */.TN)(token.id), 80);
}
function tokenLabel(token) {
    return `gateway token ${nameAndId(token)}`;
}
function uniqueById(records) {
    const seen = new Set();
    const isNew = (record) => {
        const id = caseless(record.id);
        if (seen.has(id))
            return false;
        seen.add(id);
        return true;
    };
    if (records.every(isNew))
        return records;
    seen.clear();
    return records.filter(isNew);
}
function caseless(id) {
    return /[^a-z0-9-]/.test(id) ? id.toLowerCase() : id;
}
function sameId(a, b) {
    return caseless(a) === caseless(b);
}
function findById(tokens, tokenId) {
    const wanted = caseless(tokenId);
    return tokens.find((token) => caseless(token.id) === wanted);
}
function createdTime(record) {
    return record.createdAt === undefined ? undefined : readTimestamp(record.createdAt);
}
function newestFirst(records) {
    return newestFirstBy(records, (record) => record);
}
function newestFirstBy(items, recordOf) {
    const keyed = items.map((item) => {
        const record = recordOf(item);
        return { item, time: createdTime(record) ?? -Infinity, id: record.id };
    });
    keyed.sort((a, b) => order(b.time, a.time) || order(a.id, b.id));
    return keyed.map(({ item }) => item);
}
function order(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function isUuid(value) {
    return UUID.test(value);
}
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d{2}):?([0-5]\d))$/;
function readTimestamp(text) {
    const match = ISO_8601.exec(text);
    if (match === null)
        return undefined;
    const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
    const millis = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
    const sign = match[9] === '-' ? -1 : 1;
    const offsetMinutes = match[8] ? 0 : sign * (Number(match[10]) * 60 + Number(match[11]));
    if (Math.abs(offsetMinutes) > 18 * 60)
        return undefined;
    const utc = Date.UTC(year, month - 1, day, hour, minute, second);
    if (new Date(utc).toISOString().slice(0, 19) !== text.slice(0, 19))
        return undefined;
    return utc + millis - offsetMinutes * 60_000;
}

;// CONCATENATED MODULE: ./src/inputs/parsers.ts



const refuser = (input) => (problem) => new errors/* InputError */.dz(input, problem);
const BOOLEANS = ['true', 'True', 'TRUE', 'false', 'False', 'FALSE'];
const DURATION = /^(\d+)([mhdw])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const LATER = 'in later steps';
const REFUSED_ENV_NAMES = [
    [/^(GITHUB_|RUNNER_|ACTIONS_|INPUT_|STATE_)/, 'belong to the runner'],
    [/^(?:PATH|BASH_ENV|ENV|SHELLOPTS|PS4|PROMPT_COMMAND|HOME|SHELL|IFS|CDPATH|GCONV_PATH)$/, ''],
    [/^(LD_)/, `change how the dynamic linker loads every program ${LATER}`],
    [/^(DYLD_)/, `change how the macOS dynamic linker loads every program ${LATER}`],
    [/^(GIT_)/, `change how git runs ${LATER}`],
    [/^(NODE_)/, `change how Node.js runs ${LATER}`],
    [/^(PYTHON)/, `change how Python runs ${LATER}`],
    [/^(PERL)/, `change how Perl runs ${LATER}`],
    [/^(RUBY)/, `change how Ruby runs ${LATER}`],
    [/^(_?JAVA_)/, `change how Java runs ${LATER}`],
    [/^(DOTNET_)/, `change how .NET runs ${LATER}`],
    [/^(SSL_)/, 'change which certificates later steps trust'],
    [/_PROXY$/, 'change where later steps send their network traffic'],
];
function readChoice(input, raw, choices) {
    const choice = choices.find((c) => c === raw);
    if (choice === undefined)
        throw refuser(input)(`must be one of ${choices.join(', ')}; got ${quote(raw)}.`);
    return choice;
}
function readBoolean(input, raw) {
    if (!BOOLEANS.includes(raw))
        throw refuser(input)(`must be true or false; got ${quote(raw)}.`);
    return BOOLEANS.indexOf(raw) < 3;
}
function readRevokeOnExit(raw) {
    if (raw === 'failure')
        return 'failure';
    if (!BOOLEANS.includes(raw)) {
        throw refuser('revokeOnExit')(`must be true, false or failure (revoke only when the job does not succeed); got ${quote(raw)}.`);
    }
    return readBoolean('revokeOnExit', raw) ? 'always' : 'never';
}
function readInteger(input, raw, min, max, what) {
    const number = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!(number >= min && number <= max))
        throw refuser(input)(`must be ${what} from ${min} to ${max}; got ${quote(raw)}.`);
    return number;
}
function readDuration(raw) {
    if (!raw)
        return undefined;
    const match = DURATION.exec(raw);
    const count = Number(match?.[1]);
    const unit = match?.[2];
    if (unit === undefined || !(count >= 1)) {
        throw refuser('olderThan')(`must be a whole number and a unit, m, h, d or w (90m, 12h, 30d, 2w); got ${quote(raw)}.`);
    }
    return { text: raw, ms: count * UNIT_MS[unit] };
}
function readRequiredName(raw, what) {
    if (!raw)
        throw refuser('name')(`is required for this operation: ${what}.`);
    return checkName(raw);
}
function readNameFilter(raw) {
    return raw ? checkName(raw) : undefined;
}
function checkName(raw) {
    if (shared_text/* CONTROL_CHARACTER */.gW.test(raw))
        throw refuser('name')(`must not hold control characters (line breaks, tabs); got ${quote(raw)}.`);
    return raw;
}
function readTokenId(raw) {
    const refuse = refuser('tokenId');
    if (!raw)
        throw refuse('is required for operation revoke: the id (a UUID) of the token.');
    if (!isUuid(raw))
        throw refuse(`must be a UUID like 123e4567-e89b-42d3-a456-426614174000; got ${quote(raw)}.`);
    return raw;
}
function readProjectId(raw) {
    if (!raw || isUuid(raw))
        return raw || undefined;
    throw refuser('expectedProjectId')(`must be a project id (a UUID) like 6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b; got ${quote(raw)}.`);
}
function readEnvName(raw) {
    const refuse = refuser('envName');
    if (!raw)
        return undefined;
    if (!ENV_NAME.test(raw)) {
        throw refuse(`must be an environment variable name (letters, digits and _, not starting with a digit); got ${quote(raw)}.`);
    }
    const upper = raw.toUpperCase();
    for (const [pattern, why] of REFUSED_ENV_NAMES) {
        const prefix = pattern.exec(upper)?.[1];
        if (!pattern.test(upper))
            continue;
        const reason = why === ''
            ? 'it would change how every later step runs'
            : `names ${prefix === undefined ? 'ending in _PROXY' : `starting with ${prefix}`} ${why}`;
        throw refuse(`must not be ${raw}: ${reason}. Choose a name of your own, like YOURSERVICE_GATEWAY_TOKEN.`);
    }
    return raw;
}
function readUrl(input, raw, what) {
    const refuse = refuser(input);
    if (!raw)
        throw refuse(`is required: ${what}, like https://api.example.com.`);
    let url;
    try {
        url = new URL(raw);
    }
    catch {
        throw refuse(`must be an absolute URL like https://api.example.com; got ${quote(raw)}.`);
    }
    if (url.username || url.password) {
        throw refuse('must not contain a user name or password: the action authenticates with clientId and clientSecret.');
    }
    if (url.search || url.hash) {
        throw refuse(`must not have a query string or fragment (not shown here); got one after ${quote(url.origin + url.pathname)}.`);
    }
    const loopback = /^(?:localhost|\[::1\]|127\.\d+\.\d+\.\d+)$/.test(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
        throw refuse(`must use https (http only for localhost, 127.0.0.0/8 and [::1]); got ${quote(raw)}.`);
    return url;
}
function withoutTrailingSlash(url) {
    return url.origin + url.pathname.replace(/\/+$/, '');
}
function quote(raw) {
    return JSON.stringify((0,shared_text/* truncate */.xv)(raw, 80)).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
function inputVariable(name) {
    return name.replace(/ /g, '_').toUpperCase();
}
function refuseUnknownInputs(given, declared) {
    const known = new Set(declared.map(inputVariable));
    const unknown = given.filter((variable) => !known.has(variable.toUpperCase())).sort();
    const [first, ...others] = unknown;
    if (first === undefined)
        return;
    const meant = closest(first, declared);
    const guess = meant === undefined ? ` (the inputs are ${declared.join(', ')}).` : `: did you mean '${meant}'?`;
    const also = others.map((variable) => {
        const other = closest(variable, declared);
        return `'${written(variable)}'${other === undefined ? '' : ` (did you mean '${other}'?)`}`;
    });
    throw new errors/* InputError */.dz(written(first), `is not an input of this action${guess}${also.length > 0 ? ` Also unknown: ${also.join(', ')}.` : ''} Nothing was sent: the runner passes an unknown input on with only a warning, and a misspelt one could drop a filter and widen what the action revokes. If the step's with: does not set it, it may come from an env: block of the step, the job or the workflow: a variable named INPUT_${first.toUpperCase()} there reaches the action as an input; rename it.`);
}
function written(variable) {
    return variable.toLowerCase();
}
function closest(variable, declared) {
    const wanted = squash(variable);
    if (wanted === '')
        return undefined;
    let best;
    for (const name of declared) {
        const distance = editDistance(wanted, squash(name));
        if (best === undefined || distance < best.distance)
            best = { name, distance };
    }
    if (best === undefined)
        return undefined;
    return best.distance <= Math.max(1, Math.floor(wanted.length / 4)) ? best.name : undefined;
}
function squash(name) {
    return name.toUpperCase().replace(/[^A-Z0-9]/g, '');
}
function editDistance(a, b) {
    const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
    const at = (i, j) => rows[i]?.[j] ?? Infinity;
    for (let i = 1; i <= a.length; i++) {
        const row = rows[i] ?? [];
        for (let j = 1; j <= b.length; j++) {
            const cost = a[i - 1] === b[j - 1] ? 0 : 1;
            let distance = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
            if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
                distance = Math.min(distance, at(i - 2, j - 2) + 1);
            }
            row[j] = distance;
        }
    }
    return at(a.length, b.length);
}

;// CONCATENATED MODULE: ./src/inputs/read.ts


const OPERATIONS = ['create', 'list', 'revoke', 'cleanup'];
const STATE_FILTERS = ['active', 'revoked', 'all'];
const IF_EXISTS = ['create', 'reuse', 'fail'];
const INPUT_DEFAULTS = {
    name: '',
    tokenId: '',
    envName: '',
    ifExists: 'create',
    revokeOnExit: 'false',
    state: 'all',
    olderThan: '',
    keep: '1',
    dryRun: 'false',
    concurrency: '4',
    timeout: '30',
    retries: '3',
    summary: 'true',
    writeTokenFile: 'false',
    expectedProjectId: '',
    totalTimeout: '900',
};
const JOB_STATUS_INPUT = 'jobStatus';
const REQUIRED_INPUTS = ['operation', 'clientId', 'clientSecret', 'baseUrl', 'authUrl'];
const DECLARED_INPUTS = [
    ...REQUIRED_INPUTS,
    ...Object.keys(INPUT_DEFAULTS),
    JOB_STATUS_INPUT,
];
const USED_BY = {
    create: ['name', 'envName', 'ifExists', 'revokeOnExit', 'writeTokenFile'],
    list: ['name', 'state'],
    revoke: ['tokenId'],
    cleanup: ['name', 'olderThan', 'keep', 'dryRun', 'concurrency'],
};
const OPERATION_SPECIFIC = [...new Set(Object.values(USED_BY).flat())];
function readInputs(read, secrets, given) {
    maskClientSecret(read, secrets);
    refuseUnknownInputs(given, DECLARED_INPUTS);
    const operation = readOperation(read('operation'));
    const connection = readConnection(read, secrets);
    const orDefault = withDefaults(read);
    const summary = readBoolean('summary', orDefault('summary'));
    let task;
    switch (operation) {
        case 'create':
            task = {
                operation,
                name: readRequiredName(orDefault('name'), "the new token's name"),
                envName: readEnvName(orDefault('envName')),
                ifExists: readChoice('ifExists', orDefault('ifExists'), IF_EXISTS),
                revokeOnExit: readRevokeOnExit(orDefault('revokeOnExit')),
                writeTokenFile: readBoolean('writeTokenFile', orDefault('writeTokenFile')),
            };
            break;
        case 'list':
            task = {
                operation,
                name: readNameFilter(orDefault('name')),
                state: readChoice('state', orDefault('state'), STATE_FILTERS),
            };
            break;
        case 'revoke':
            task = { operation, tokenId: readTokenId(orDefault('tokenId')) };
            break;
        case 'cleanup':
            task = readCleanup(orDefault);
            break;
    }
    const warnings = OPERATION_SPECIFIC.filter((input) => !USED_BY[operation].includes(input) && orDefault(input) !== INPUT_DEFAULTS[input]).map((input) => `Input '${input}' is not used by operation ${operation}; it is ignored.`);
    return {
        connection,
        task,
        summary,
        expectedProjectId: readProjectId(orDefault('expectedProjectId')),
        warnings,
    };
}
function readConnection(read, secrets) {
    const clientSecret = maskClientSecret(read, secrets);
    const clientId = read('clientId');
    if (!clientId)
        throw new errors/* InputError */.dz('clientId', `is required: the API client id, from a secret. ${errors/* FORK_HINT */.DS}`);
    if (!clientSecret) {
        throw new errors/* InputError */.dz('clientSecret', `is required: the API client secret, from a secret. ${errors/* FORK_HINT */.DS}`);
    }
    const orDefault = withDefaults(read);
    const authUrl = readUrl('authUrl', read('authUrl'), 'the auth service base URL');
    return {
        clientId,
        clientSecret,
        baseUrl: withoutTrailingSlash(readUrl('baseUrl', read('baseUrl'), 'the REST API base URL')),
        authUrl: withoutTrailingSlash(authUrl),
        timeoutMs: readInteger('timeout', orDefault('timeout'), 1, 600, 'a whole number of seconds') * 1000,
        retries: readInteger('retries', orDefault('retries'), 0, 10, 'a whole number'),
        totalTimeoutMs: readInteger('totalTimeout', orDefault('totalTimeout'), 0, 21_600, 'a whole number of seconds') * 1000,
    };
}
function withDefaults(read) {
    return (input) => read(input) || INPUT_DEFAULTS[input];
}
function maskClientSecret(read, secrets) {
    const clientSecret = read('clientSecret');
    secrets.add(clientSecret);
    return clientSecret;
}
function readOperation(raw) {
    if (!raw)
        throw new errors/* InputError */.dz('operation', `is required: one of ${OPERATIONS.join(', ')}.`);
    return readChoice('operation', raw, OPERATIONS);
}
function readCleanup(orDefault) {
    const name = readNameFilter(orDefault('name'));
    const olderThan = readDuration(orDefault('olderThan'));
    if (name === undefined && olderThan === undefined) {
        throw new errors/* InputError */.dz('name', "or 'olderThan' is required for operation cleanup: say which tokens to revoke (name: ci-*, olderThan: 30d). Nothing was revoked.");
    }
    return {
        operation: 'cleanup',
        name,
        olderThan,
        keep: readInteger('keep', orDefault('keep'), 0, 1000, 'a whole number'),
        dryRun: readBoolean('dryRun', orDefault('dryRun')),
        concurrency: readInteger('concurrency', orDefault('concurrency'), 1, 32, 'a whole number'),
    };
}

;// CONCATENATED MODULE: ./src/platform/lost-create.ts



function mustSearch(facts) {
    return facts.lost || (facts.written && facts.id === undefined && !facts.refused);
}
const KNOWN_CLOCK_MARGIN_MS = 2_000;
const UNKNOWN_CLOCK_MARGIN_MS = 60_000;
const LATE_CREATE_MS = 60_000;
function createWindow(sentAt, platformTime, totalMs = 0) {
    const onPlatform = platformTime(sentAt);
    const margin = onPlatform === undefined ? UNKNOWN_CLOCK_MARGIN_MS : KNOWN_CLOCK_MARGIN_MS;
    const start = onPlatform ?? sentAt;
    const until = totalMs > 0 ? start + totalMs + LATE_CREATE_MS + margin : Infinity;
    return { since: start - margin, until, clockKnown: onPlatform !== undefined };
}
function findCreated(tokens, { name, sentAt }, platformTime, { totalMs = 0, except } = {}) {
    const { since, until, clockKnown } = createWindow(sentAt, platformTime, totalMs);
    const candidates = newestFirst(tokens.filter((token) => {
        if (token.name !== name || token.state !== 'active')
            return false;
        if (except !== undefined && sameId(token.id, except))
            return false;
        const created = createdTime(token);
        return created === undefined || (created >= since && created <= until);
    }));
    const [only] = candidates;
    if (only === undefined)
        return { found: 'none' };
    if (candidates.length > 1)
        return { found: 'several', tokens: candidates };
    const created = createdTime(only);
    if (created === undefined) {
        const why = `its createdAt (${JSON.stringify((0,shared_text/* truncate */.xv)(only.createdAt ?? '', 40))}) cannot be read, so whether it was made by this step or before it cannot be told`;
        return { found: 'unsure', token: only, why };
    }
    if (!clockKnown && created < sentAt - KNOWN_CLOCK_MARGIN_MS) {
        const seconds = Math.round((sentAt - created) / 1000);
        const why = `it was created ${seconds} s before the create was sent by the runner's clock, and the platform's answers carry no Date header to compare the two clocks with, so it may be another's`;
        return { found: 'unsure', token: only, why };
    }
    return { found: 'one', token: only };
}
async function revokeAtOnce(revoke, token) {
    try {
        await revoke(token.id);
        return 'It was revoked at once.';
    }
    catch (error) {
        return `Revoking it at once failed too: ${(0,shared_text/* asSentence */.KG)((0,errors/* messageOf */.bD)(error))} Revoke it with operation: revoke and tokenId: ${shortId(token)}.`;
    }
}
async function notHandedOn(revoke, token, why) {
    const revoked = await revokeAtOnce(revoke, token);
    return new errors/* ActionError */.lZ(`${(0,shared_text/* asSentence */.KG)((0,errors/* messageOf */.bD)(why))} The value of the new ${tokenLabel(token)} was not handed on. ${revoked}`);
}
class FollowedCreate {
    context;
    facts;
    unsaved;
    lostAttempts = 0;
    constructor(name, context) {
        this.context = context;
        this.facts = { name, sentAt: context.clock.now(), written: false, refused: false, lost: false };
        context.save({ ...this.facts });
    }
    written() {
        if (!this.facts.written)
            this.note({ written: true });
    }
    async afterLostAnswer(failure) {
        const { facts, context } = this;
        const name = quoteName(facts.name);
        context.log.info(`${failure}. The token may have been created all the same: checking the list.`);
        this.lostAttempts++;
        this.note({ lost: true });
        let tokens;
        try {
            tokens = await context.list();
        }
        catch (error) {
            throw new errors/* RequestError */.GI(`${failure}; whether token ${name} was created is unknown, as listing the tokens failed too: ${(0,errors/* messageOf */.bD)(error)} ${lookForSentence(facts, context.platformTime)}`);
        }
        const created = findCreated(tokens, facts, context.platformTime);
        switch (created.found) {
            case 'none':
                context.log.info(`No token named ${name} was created: sending the create again.`);
                return undefined;
            case 'several':
                throw new errors/* RequestError */.GI(`${failure}; ${created.tokens.length} active tokens named ${name} were created since this step began (${created.tokens.map(shortId).join(', ')}), so which one is this step's cannot be told. Give each job a token name of its own; revoke the tokens you do not need.`);
            case 'unsure':
                throw new errors/* RequestError */.GI(`${failure}; the list shows one active token named ${name}, ${shortId(created.token)}, but ${created.why}. It was not taken for this step's. ${lookForSentence(facts, context.platformTime)}`);
            case 'one':
                return this.adopted(created.token, failure);
        }
    }
    async accept(token, request) {
        const { facts, context } = this;
        if (token.name === facts.name && token.state === 'active') {
            this.note({ id: token.id });
            if (this.unsaved !== undefined)
                throw await notHandedOn(context.revoke, token, this.unsaved.error);
            if (facts.lost)
                this.sayLostAttempt(token);
            return token;
        }
        const state = JSON.stringify((0,shared_text/* truncate */.xv)((0,shared_text/* oneLine */.TN)(token.state), 40));
        const mismatch = `${request} answered with the token ${nameAndId(token)} in state ${state}, not an active token named ${quoteName(facts.name)}: its value was not handed on.`;
        const created = createdTime(token);
        const since = createWindow(facts.sentAt, context.platformTime).since;
        if (token.state !== 'active' || (created !== undefined && created < since)) {
            this.note({ refused: true });
            const older = ` It was created before this create was sent, so it may be another's: it was not revoked. Look at it with operation: list.`;
            throw new errors/* RequestError */.GI(token.state === 'active' ? mismatch + older : mismatch);
        }
        this.note({ id: token.id });
        throw new errors/* RequestError */.GI(`${mismatch} ${await revokeAtOnce(context.revoke, token)}`);
    }
    failed(error) {
        if (this.facts.id !== undefined || this.facts.lost)
            return;
        const status = error instanceof errors/* RequestError */.GI ? error.status : undefined;
        if ((0,errors/* isRefusal */.vu)(status) || status === 429)
            this.note({ refused: true });
        else if (this.facts.written)
            this.note({ lost: true });
    }
    async adopted(token, failure) {
        if (!isUuid(token.id)) {
            throw new errors/* RequestError */.GI(`${failure}; a token named ${quoteName(this.facts.name)} was created, but its id ${JSON.stringify((0,shared_text/* truncate */.xv)(token.id, 80))} is not a UUID, so the action cannot use it. Revoke it and run again.`);
        }
        this.note({ id: token.id, lost: this.lostAttempts > 1 });
        if (token.tokenValue === undefined) {
            throw new errors/* RequestError */.GI(`${failure}; token ${token.id} was created, but the platform does not show its value (the answer had none, or a blank one). ${await revokeAtOnce(this.context.revoke, token)}`);
        }
        this.context.log.info(`It was: token ${token.id}, created at ${(0,shared_text/* oneLine */.TN)(token.createdAt ?? '?')}, is this step's token.`);
        return token;
    }
    sayLostAttempt(kept) {
        const { log, postStepLooks, platformTime } = this.context;
        if (postStepLooks) {
            log.info(`An earlier attempt got no answer: the post step looks for a token it may have made, beside ${shortId(kept)} (revokeOnExit).`);
            return;
        }
        log.warning(`An earlier attempt of this create got no answer, and the list did not show its token, so the create was sent again. ${lookForSentence(this.facts, platformTime, kept.id)} revokeOnExit: true looks for it at the end of the job.`);
    }
    note(change) {
        Object.assign(this.facts, change);
        try {
            this.context.save({ ...this.facts });
        }
        catch (error) {
            this.unsaved ??= { error };
        }
    }
}
function lookForSentence(facts, platformTime, except) {
    const since = new Date(createWindow(facts.sentAt, platformTime).since).toISOString();
    const other = except === undefined ? '' : ` other than ${(0,shared_text/* truncate */.xv)((0,shared_text/* oneLine */.TN)(except), 80)}`;
    return `An active token named ${quoteName(facts.name)}${other} created after ${since} would be this step's, and nobody has its value: revoke it (operation: revoke, tokenId).`;
}

;// CONCATENATED MODULE: ./src/operations/create.ts




async function create(client, task, options = {}) {
    const { name, ifExists } = task;
    if (ifExists !== 'create') {
        const tokens = await client.listTokens();
        const [existing] = newestFirst(tokens.filter((t) => t.name === name && t.state === 'active'));
        if (existing !== undefined) {
            const which = `an active token named '${name}' exists already: ${existing.id}, created ${existing.createdAt ?? 'at an unknown time'}`;
            if (ifExists === 'fail')
                throw new errors/* ActionError */.lZ(`${which}, and ifExists is fail.`);
            if (existing.tokenValue === undefined) {
                throw new errors/* ActionError */.lZ(`${which}, but the platform did not return its value, so it cannot be reused.`);
            }
            return { operation: 'create', token: existing, reused: true };
        }
    }
    return { operation: 'create', token: await client.createToken(name, options), reused: false };
}
async function revokeUnhanded(client, result, error) {
    const { token } = result;
    if (result.reused) {
        return new errors/* ActionError */.lZ(`${(0,shared_text/* asSentence */.KG)((0,errors/* messageOf */.bD)(error))} The reused ${tokenLabel(token)} stays active.`);
    }
    return notHandedOn((id) => client.revokeToken(id), token, error);
}

;// CONCATENATED MODULE: ./src/shared/time.ts
const systemClock = {
    now: () => Date.now(),
    sleep: (ms, signal) => new Promise((resolve) => {
        if (signal?.aborted === true) {
            resolve();
            return;
        }
        const done = () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            resolve();
        };
        const timer = setTimeout(done, ms);
        signal?.addEventListener('abort', done, { once: true });
    }),
    jitter: () => Math.random(),
};
class Deadline {
    clock;
    totalMs;
    limit;
    endsAt;
    cancelledBy;
    stopping = new AbortController();
    cutting = new AbortController();
    constructor(clock, totalMs, limit) {
        this.clock = clock;
        this.totalMs = totalMs;
        this.limit = limit;
        this.endsAt = totalMs > 0 ? clock.now() + totalMs : Infinity;
    }
    remaining() {
        if (this.cancelledBy !== undefined)
            return 0;
        return Math.max(0, this.endsAt - this.clock.now());
    }
    expired() {
        return this.remaining() === 0;
    }
    get stopSignal() {
        return this.stopping.signal;
    }
    get cutSignal() {
        return this.cutting.signal;
    }
    cancel(signal) {
        if (this.cancelledBy !== undefined)
            return;
        this.cancelledBy = signal;
        this.stopping.abort();
    }
    cut() {
        this.cutting.abort();
    }
    cause() {
        if (this.cancelledBy !== undefined)
            return { by: 'cancel', signal: this.cancelledBy };
        const cause = { by: 'totalTimeout', totalMs: this.totalMs };
        return this.limit === undefined ? cause : { ...cause, limit: this.limit };
    }
    describe() {
        return budget(this.totalMs, this.limit);
    }
}
function budget(totalMs, limit = 'totalTimeout') {
    return `${limit} (${Math.round(totalMs / 1000)} s)`;
}
function stopped(cause) {
    return cause.by === 'cancel'
        ? `The step was cancelled (${cause.signal})`
        : `${budget(cause.totalMs, cause.limit)} ran out`;
}

;// CONCATENATED MODULE: external "node:http"
const external_node_http_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");
var external_node_http_default = /*#__PURE__*/__nccwpck_require__.n(external_node_http_namespaceObject);
;// CONCATENATED MODULE: external "node:https"
const external_node_https_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:https");
var external_node_https_default = /*#__PURE__*/__nccwpck_require__.n(external_node_https_namespaceObject);
// EXTERNAL MODULE: ./node_modules/@actions/http-client/lib/index.js + 2 modules
var lib = __nccwpck_require__(511);
;// CONCATENATED MODULE: ./src/platform/http.ts






const VERSION = '0.1.0';
const USER_AGENT = `gateway-token-action/${VERSION}`;
class TransportError extends Error {
    code;
    requestSent;
    name = 'TransportError';
    constructor(message, code, requestSent) {
        super(message);
        this.code = code;
        this.requestSent = requestSent;
    }
}
const CUT_OFF = 'ECANCELED';
class HttpTransport {
    clients = {
        auth: new lib/* HttpClient */.Qq(USER_AGENT, [], { keepAlive: true }),
        api: new lib/* HttpClient */.Qq(USER_AGENT, [], { keepAlive: true }),
    };
    send(target, request, timeoutMs, signal, onWritten) {
        const agent = this.clients[target].getAgent(request.url);
        return send(request, agent, timeoutMs, signal, onWritten);
    }
    close() {
        this.clients.auth.dispose();
        this.clients.api.dispose();
    }
}
const MAX_BODY_BYTES = 64 * 1024 * 1024;
const DESCRIPTIONS = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    EPIPE: 'connection closed while sending',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host name lookup failed',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ECONNABORTED: 'connection aborted',
    DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is self-signed, and not trusted',
    SELF_SIGNED_CERT_IN_CHAIN: 'its certificate chain ends in a self-signed CA that is not trusted',
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its certificate was issued by a CA that is not trusted',
    UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its certificate was issued by a CA that is not trusted',
    CERT_HAS_EXPIRED: 'its certificate has expired',
    ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is for another host name',
};
function send(request, agent, timeoutMs, signal, onWritten) {
    return new Promise((resolve, reject) => {
        const url = new URL(request.url);
        const transport = url.protocol === 'https:' ? (external_node_https_default()) : (external_node_http_default());
        const headers = { ...request.headers };
        if (request.body !== undefined)
            headers['Content-Length'] = String(Buffer.byteLength(request.body));
        let sent = false;
        let settled = false;
        const finish = (outcome) => {
            if (settled)
                return;
            settled = true;
            clearTimeout(timer);
            signal?.removeEventListener('abort', cutOff);
            outcome();
        };
        const fail = (error) => {
            finish(() => {
                reject(toTransportError(error, sent));
            });
        };
        const req = transport.request(url, { method: request.method, headers, agent });
        const timer = setTimeout(() => {
            const seconds = timeoutMs / 1000;
            const error = new TransportError(`no answer within ${seconds} s (timeout)`, 'ETIMEDOUT', sent);
            fail(error);
            req.destroy(error);
        }, timeoutMs);
        const cutOff = () => {
            const error = new TransportError('cut off: the step was cancelled', CUT_OFF, sent);
            fail(error);
            req.destroy(error);
        };
        if (signal?.aborted === true)
            cutOff();
        else
            signal?.addEventListener('abort', cutOff, { once: true });
        req.on('error', fail);
        req.on('finish', () => {
            sent = true;
            onWritten?.();
        });
        req.on('response', (res) => {
            let chunks = [];
            let size = 0;
            res.on('data', (chunk) => {
                size += chunk.length;
                if (size > MAX_BODY_BYTES) {
                    const error = new TransportError('answer larger than 64 MiB', 'EMSGSIZE', true);
                    fail(error);
                    req.destroy(error);
                    return;
                }
                chunks.push(chunk);
            });
            res.on('error', fail);
            res.on('end', () => {
                const body = Buffer.concat(chunks, size).toString('utf8');
                chunks = [];
                finish(() => {
                    resolve({
                        status: res.statusCode ?? 0,
                        statusText: res.statusMessage ?? '',
                        headers: res.headers,
                        body,
                    });
                });
            });
        });
        req.end(request.body);
    });
}
function toTransportError(error, sent) {
    if (error instanceof TransportError)
        return error;
    const code = error.code;
    const message = error instanceof Error ? error.message : String(error);
    const proxyStatus = /tunneling socket could not be established, statusCode=(\d{3})/.exec(message)?.[1];
    if (proxyStatus !== undefined) {
        return new TransportError(proxyStatus === '407'
            ? 'the proxy answered 407 Proxy Authentication Required (EPROXY)'
            : `the proxy answered ${proxyStatus} to the tunnel (EPROXY)`, proxyStatus === '407' ? 'EPROXYAUTH' : 'EPROXY', false);
    }
    const known = typeof code === 'string' ? code : 'EUNKNOWN';
    const description = DESCRIPTIONS[known] ?? (TLS_TRUST.has(known) ? 'certificate not trusted' : message);
    return new TransportError(`${description} (${known})`, known, sent);
}
const TLS_TRUST = new Set([
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'UNABLE_TO_GET_ISSUER_CERT',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'CERT_UNTRUSTED',
    'CERT_SIGNATURE_FAILURE',
    'CERT_HAS_EXPIRED',
    'CERT_NOT_YET_VALID',
    'ERR_TLS_CERT_ALTNAME_INVALID',
]);
const AUTH_PATH = '/idp/identity/resources/auth/v2/api-token';
function authEndpoint(authUrl) {
    return authUrl.endsWith('/api-token') ? authUrl : authUrl + AUTH_PATH;
}
const TOKENS_PATH = '/api/tokens';
function revokePath(tokenId) {
    if (!isUuid(tokenId)) {
        throw new errors/* RequestError */.GI(`the token id ${JSON.stringify((0,shared_text/* truncate */.xv)(tokenId, 80))} is not a UUID, so it was not sent in a URL; nothing was revoked.`);
    }
    const id = encodeURIComponent(tokenId);
    return `/api/tokens/${id}/revoke?tokenId=${id}`;
}
function jsonRequest(method, url, body) {
    const headers = { Accept: 'application/json', 'User-Agent': USER_AGENT };
    if (body === undefined)
        return { method, url, headers };
    return { method, url, headers: { ...headers, 'Content-Type': 'application/json' }, body };
}
function requestLine(request) {
    return `${request.method} ${request.url}`;
}

;// CONCATENATED MODULE: ./src/platform/failures.ts


const DEFAULT_BACKOFF = {
    baseDelayMs: 500,
    maxDelayMs: 8_000,
    maxRetryAfterMs: 60_000,
};
const TRANSIENT_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
const TRANSIENT_CODES = new Set([
    'ECONNRESET',
    'ECONNREFUSED',
    'ECONNABORTED',
    'EPIPE',
    'ETIMEDOUT',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'ENETDOWN',
]);
function isTransient(outcome) {
    return outcome instanceof TransportError
        ? TRANSIENT_CODES.has(outcome.code)
        : TRANSIENT_STATUSES.has(outcome.status);
}
function mayHaveTakenEffect(outcome) {
    if (outcome instanceof TransportError)
        return outcome.requestSent;
    return outcome.status >= 500 || outcome.status === 408;
}
function backoffDelay(retry, jitter, backoff = DEFAULT_BACKOFF) {
    const ceiling = Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** (retry - 1));
    return Math.round(ceiling / 2 + (jitter * ceiling) / 2);
}
function retryAfterDelay(headers, now, backoff = DEFAULT_BACKOFF) {
    const value = headers['retry-after']?.trim();
    if (!value)
        return undefined;
    let delay;
    if (/^\d+$/.test(value)) {
        delay = Number(value) * 1000;
    }
    else {
        const at = /[a-z]/i.test(value) ? Date.parse(value) : NaN;
        if (Number.isNaN(at))
            return undefined;
        const serverNow = headers.date === undefined ? NaN : Date.parse(headers.date);
        delay = Math.max(0, at - (Number.isNaN(serverNow) ? now : serverNow));
    }
    return Math.min(delay, backoff.maxRetryAfterMs);
}
const MAX_REASON = 60;
const MAX_DETAIL = 300;
const MAX_BODY = 64 * 1024;
const MAX_DEPTH = 4;
const MAX_PARTS = 16;
function describeBody(body, contentType, scrub) {
    const truncated = body.length > MAX_BODY;
    const text = scrub(truncated ? body.slice(0, MAX_BODY) : body).trim();
    if (text === '')
        return '';
    if (/html/i.test(contentType ?? '') || /^<(!doctype|html|head|body)\b/i.test(text)) {
        return 'the body was not JSON (an HTML page)';
    }
    let json;
    try {
        json = JSON.parse(text);
    }
    catch {
        if (truncated && /^[[{]/.test(text)) {
            return `a JSON body of ${body.length} characters, too long to read for its message`;
        }
        return shorten(text);
    }
    const detail = jsonDetail(json);
    if (detail !== undefined)
        return shorten(scrub(detail));
    const fields = typeof json === 'object' && json !== null && !Array.isArray(json)
        ? Object.keys(json).slice(0, 8)
        : [];
    return fields.length > 0
        ? shorten(`a JSON body without an error message (fields: ${fields.join(', ')})`)
        : 'a JSON body without an error message';
}
function jsonDetail(value, depth = 0) {
    if (typeof value === 'string')
        return value;
    if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH)
        return undefined;
    const fields = value;
    const parts = [
        fields.error,
        fields.message,
        fields.errors,
        fields.error_description,
        fields.detail,
    ]
        .flatMap((field) => (Array.isArray(field) ? field : [field]))
        .slice(0, MAX_PARTS)
        .map((field) => typeof field === 'object' && field !== null ? jsonDetail(field, depth + 1) : field)
        .filter((field) => typeof field === 'string' && field.trim() !== '');
    return parts.length > 0 ? [...new Set(parts)].join('; ') : undefined;
}
function shorten(text) {
    return (0,shared_text/* truncate */.xv)((0,shared_text/* oneLine */.TN)(text), MAX_DETAIL);
}
function describeFailure(request, outcome, { renewed, attempt }, scrub) {
    if (outcome instanceof TransportError) {
        return `${requestLine(request)} got no answer${attempt}: ${scrub(outcome.message)}`;
    }
    const detail = describeBody(outcome.body, outcome.headers['content-type'], scrub);
    const reason = (0,shared_text/* truncate */.xv)((0,shared_text/* oneLine */.TN)(scrub(outcome.statusText)), MAX_REASON);
    const status = `${outcome.status}${reason ? ` ${reason}` : ''}`;
    const what = detail ? `: ${detail}` : '';
    if (renewed && outcome.status === 401) {
        return `the access token was rejected: ${requestLine(request)} answered ${status} even after authenticating again${what}`;
    }
    return `${requestLine(request)} answered ${status}${attempt}${what}`;
}
const UNREACHABLE = new Set([
    'ECONNREFUSED',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'ENETDOWN',
]);
function transportHint(error, target, url, timeoutMs) {
    if (error.code === 'ETIMEDOUT') {
        return ` The timeout input allows ${timeoutMs / 1000} s per request: raise it if the platform is this slow.`;
    }
    const input = target === 'auth' ? 'authUrl' : 'baseUrl';
    const { host, origin } = new URL(url);
    if (UNREACHABLE.has(error.code)) {
        return ` Check the ${input} input (${origin}) and that the runner can reach that host: a self-hosted runner may need a firewall rule or a proxy (HTTPS_PROXY, NO_PROXY).`;
    }
    if (error.code === 'EPROXYAUTH') {
        return ` Check the user name and password in HTTPS_PROXY (http://user:password@proxy:port, the special characters %-encoded), and that the proxy lets this runner reach ${host}.`;
    }
    if (error.code === 'EPROXY') {
        return ` The proxy in HTTPS_PROXY would not open a tunnel to ${host}: check that it allows that host, or list the host in NO_PROXY if the runner reaches it directly.`;
    }
    if (error.code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
        return ` Check the ${input} input (${origin}): the host's certificate names other hosts, and TLS checks cannot be turned off.`;
    }
    if (TLS_TRUST.has(error.code)) {
        return ` The runner does not trust the certificate of ${host}. If it comes from a private CA, or a proxy that inspects TLS, give the runner that CA: NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment of the job, or in the .env file of a self-hosted runner. TLS checks cannot be turned off.`;
    }
    return '';
}
function authPathHint(endpoint) {
    const tail = AUTH_PATH.slice(AUTH_PATH.indexOf('/resources/'));
    return `Check the authUrl input: nothing takes credentials at ${endpoint}. Deployments differ in the path before ${tail} (/idp/identity, /frontegg/identity, /identity): set authUrl to the full endpoint URL, ending in /api-token.`;
}
function apiPathHint(request) {
    const { origin, pathname } = new URL(request.url);
    const at = pathname.lastIndexOf(TOKENS_PATH);
    if (at < 0)
        return '';
    const baseUrl = origin + pathname.slice(0, at);
    const repeated = /\/([^/]+)\/\1(?=\/)/.exec(pathname)?.[1];
    if (repeated !== undefined) {
        const advice = `${baseUrl}/`.endsWith(`/${repeated}/`) && `${TOKENS_PATH}/`.startsWith(`/${repeated}/`)
            ? `the action adds ${TOKENS_PATH} to it, so leave /${repeated} off its end`
            : 'check its path prefix';
        return ` Check the baseUrl input (${baseUrl}): the path repeats /${repeated}/; ${advice}.`;
    }
    if (pathname.endsWith(TOKENS_PATH)) {
        return ` Nothing answers at ${origin}${pathname}: check the baseUrl input (${baseUrl}). The action adds ${TOKENS_PATH} to it: give the API's base URL with its path prefix, if it has one, like https://api.example.com or https://example.com/gateway.`;
    }
    return '';
}
function notJsonHint(request, target) {
    const { origin, pathname } = new URL(request.url);
    if (target === 'auth') {
        return ` Check the authUrl input: the action posts the credentials to ${origin}${pathname}, which must be the auth service's token endpoint (authUrl plus ${AUTH_PATH}, or authUrl itself when it ends in /api-token).`;
    }
    const at = pathname.lastIndexOf(TOKENS_PATH);
    const baseUrl = origin + (at < 0 ? pathname : pathname.slice(0, at));
    return ` Check the baseUrl input (${baseUrl}): the action adds ${TOKENS_PATH} to it, so it must be the REST API's base URL, not the web app's.`;
}

;// CONCATENATED MODULE: ./src/platform/decode.ts





const NOT_JSON = Symbol('not JSON');
const HEADER_SAFE = /^[\x21-\x7e]+$/;
function parseJson(body) {
    try {
        return JSON.parse(body);
    }
    catch {
        return NOT_JSON;
    }
}
function readRecord(request, answer) {
    const record = toRecord(readJson(request, answer));
    if (typeof record === 'string') {
        throw new errors/* RequestError */.GI(`${requestLine(request)} answered ${answer.status} but the body is ${record}.`, answer.status);
    }
    return record;
}
function readRevoked(request, answer, tokenId) {
    const record = readRecord(request, answer);
    if (!sameId(record.id, tokenId)) {
        throw new errors/* RequestError */.GI(`${requestLine(request)} answered ${answer.status} with the record of another token, ${nameAndId(record)}.`, answer.status);
    }
    if (record.state !== 'revoked') {
        throw new errors/* RequestError */.GI(`${requestLine(request)} answered ${answer.status} with the token in state ${JSON.stringify((0,shared_text/* truncate */.xv)(record.state, 40))}, not revoked.`, answer.status);
    }
    return record;
}
function readCreated(request, answer) {
    const record = readRecord(request, answer);
    if (!isUuid(record.id)) {
        throw new errors/* RequestError */.GI(`${requestLine(request)} answered ${answer.status} but the new token's id ${JSON.stringify((0,shared_text/* truncate */.xv)(record.id, 80))} is not a UUID, so the action cannot use it; look for the token with operation: list.`, answer.status);
    }
    if (record.tokenValue === undefined) {
        throw new errors/* RequestError */.GI(`${requestLine(request)} answered ${answer.status} but the new token ${record.id} has no tokenValue; revoke it and try again.`, answer.status);
    }
    return record;
}
function readList(request, answer) {
    const body = readJson(request, answer);
    if (!Array.isArray(body)) {
        throw new errors/* RequestError */.GI(`${requestLine(request)} answered ${answer.status} but the body is not a list of tokens.`, answer.status);
    }
    const records = body.map((item, index) => {
        const record = toRecord(item);
        if (typeof record === 'string') {
            throw new errors/* RequestError */.GI(`${requestLine(request)} answered ${answer.status} but item ${index} of the list is ${record}.`, answer.status);
        }
        return record;
    });
    return uniqueById(records);
}
function readAccessToken(request, answer, now) {
    const body = readJson(request, answer, 'auth');
    const fields = (typeof body === 'object' && body !== null ? body : {});
    const value = typeof fields.access_token === 'string' ? fields.access_token : fields.accessToken;
    if (typeof value !== 'string' || value === '') {
        throw new errors/* RequestError */.GI(`${requestLine(request)} answered 200 without an access_token.`, answer.status);
    }
    if (!HEADER_SAFE.test(value)) {
        throw new errors/* RequestError */.GI(`${requestLine(request)} answered 200 but its access_token cannot be sent as a header value: it holds characters other than visible ASCII.`, answer.status);
    }
    const lifetime = typeof fields.expires_in === 'number' && fields.expires_in > 0 ? fields.expires_in * 1000 : 0;
    const renewAt = lifetime > 0 ? now + lifetime - Math.min(60_000, lifetime / 10) : undefined;
    return { value, renewAt };
}
function readJson(request, answer, target = 'api') {
    if (answer.json === NOT_JSON) {
        const page = /html/i.test(answer.headers['content-type'] ?? '') ? 'a web page' : 'a body';
        throw new errors/* RequestError */.GI(`${requestLine(request)} answered ${answer.status} with ${page} that is not JSON.${notJsonHint(request, target)}`, answer.status);
    }
    return answer.json;
}

;// CONCATENATED MODULE: ./src/platform/call-loop.ts






class CallLoop {
    options;
    platformOffset;
    accessTokens;
    constructor(options) {
        this.options = options;
        this.accessTokens = options.accessTokens?.(this);
    }
    platformTime(at) {
        return this.platformOffset === undefined ? undefined : at + this.platformOffset;
    }
    async call(target, request, options) {
        const attempts = this.options.retries + 1;
        let renewed = false;
        for (let attempt = (options.pooled?.attemptsUsed ?? 0) + 1;; attempt++) {
            if (this.options.deadline.expired())
                throw notSent(this.options.deadline, request);
            const { outcome, accessToken, shortened } = await this.attempt(target, request, options);
            this.throwIfCutOff(request, outcome, shortened);
            const answer = outcome instanceof TransportError ? undefined : outcome;
            if (answer?.status === 401 && accessToken !== undefined && !renewed) {
                renewed = true;
                this.options.log.info(`${requestLine(request)} answered 401: authenticating again.`);
                await this.accessTokens?.reject(accessToken);
                attempt--;
                continue;
            }
            if (answer !== undefined && isSuccess(target, answer.status)) {
                return this.readSuccess(answer, options);
            }
            const retrying = isTransient(outcome) && attempt < attempts;
            const numbered = attempts > 1 && isTransient(outcome) ? ` (attempt ${attempt} of ${attempts})` : '';
            const scrub = (text) => this.options.secrets.scrub(text);
            const failure = describeFailure(request, outcome, { renewed, attempt: numbered }, scrub);
            const delay = retrying ? this.delayOrStop(failure, outcome, attempt, options) : 0;
            if (options.onUncertain !== undefined && mayHaveTakenEffect(outcome)) {
                if (retrying)
                    await this.wait(failure, delay);
                const found = await options.onUncertain(failure);
                if (found !== undefined)
                    return found;
                if (retrying)
                    continue;
            }
            if (!retrying)
                throw this.finalFailure(target, request, outcome, failure);
            await this.wait(failure, delay);
        }
    }
    throwIfCutOff(request, outcome, shortened) {
        if (!(outcome instanceof TransportError))
            return;
        if (!((outcome.code === 'ETIMEDOUT' && shortened) || outcome.code === CUT_OFF))
            return;
        const maybe = outcome.requestSent ? ' It may have taken effect all the same.' : '';
        throw new errors/* DeadlineError */.j3(`${stopped(this.options.deadline.cause())} while ${requestLine(request)} waited for an answer.${maybe}`, undefined, outcome.requestSent);
    }
    async readSuccess(answer, options) {
        try {
            return options.read(answer);
        }
        catch (error) {
            const found = error instanceof errors/* RequestError */.GI
                ? await options.onUncertain?.(error.message.replace(/\.$/, ''))
                : undefined;
            if (found !== undefined)
                return found;
            throw error;
        }
    }
    delayOrStop(failure, outcome, attempt, options) {
        const { clock, backoff, deadline } = this.options;
        const answer = outcome instanceof TransportError ? undefined : outcome;
        const retryAfter = answer && retryAfterDelay(answer.headers, clock.now(), backoff);
        const delay = retryAfter ?? backoffDelay(attempt, clock.jitter(), backoff);
        if (answer?.status === 429 && options.pooled !== undefined) {
            throw new errors/* ThrottledError */.Xe((0,shared_text/* asSentence */.KG)(failure), { waitMs: delay, attemptsUsed: attempt });
        }
        if (delay < deadline.remaining())
            return delay;
        const maybe = mayHaveTakenEffect(outcome);
        const cause = deadline.cause();
        const why = cause.by === 'cancel'
            ? `the step was cancelled (${cause.signal}), so it was not tried again`
            : `${deadline.describe()} leaves no time to wait ${seconds(delay)} and try again`;
        throw new errors/* DeadlineError */.j3(`${failure}; ${why}.${maybe ? ' It may have taken effect all the same.' : ''}`, answer?.status, maybe);
    }
    finalFailure(target, request, outcome, failure) {
        if (outcome instanceof TransportError) {
            const hint = transportHint(outcome, target, request.url, this.options.timeoutMs);
            return new errors/* RequestError */.GI((0,shared_text/* asSentence */.KG)(failure) + hint, undefined, isTransient(outcome));
        }
        const hint = target === 'api' && outcome.status === 404 ? apiPathHint(request) : '';
        return new errors/* RequestError */.GI((0,shared_text/* asSentence */.KG)(failure) + hint, outcome.status, isTransient(outcome));
    }
    async wait(failure, delay) {
        this.options.log.info(`${failure}; retrying in ${seconds(delay)}.`);
        await this.options.clock.sleep(delay, this.options.deadline.stopSignal);
    }
    async attempt(target, request, { onWritten }) {
        const { clock, secrets, transport, log, deadline } = this.options;
        let accessToken;
        let sent = request;
        if (target === 'api' && this.accessTokens !== undefined) {
            accessToken = await this.accessTokens.accessToken();
            secrets.add(accessToken, 'sent');
            sent = { ...request, headers: { ...request.headers, Authorization: `Bearer ${accessToken}` } };
        }
        if (deadline.expired())
            throw notSent(deadline, request);
        const timeoutMs = Math.min(this.options.timeoutMs, deadline.remaining());
        const started = clock.now();
        let outcome;
        try {
            const response = await transport.send(target, sent, timeoutMs, deadline.cutSignal, onWritten);
            const json = parseJson(response.body);
            secrets.addFrom(json);
            const read = json !== NOT_JSON && isSuccess(target, response.status);
            outcome = { ...response, body: read ? '' : response.body, json };
            if (target === 'api')
                this.notePlatformTime(outcome);
        }
        catch (error) {
            if (!(error instanceof TransportError))
                throw error;
            outcome = error;
        }
        const result = outcome instanceof TransportError ? outcome.code : String(outcome.status);
        log.debug(`${requestLine(request)} -> ${result} in ${clock.now() - started} ms`);
        const shortened = timeoutMs < this.options.timeoutMs;
        return accessToken === undefined ? { outcome, shortened } : { outcome, accessToken, shortened };
    }
    notePlatformTime(answer) {
        const date = answer.headers.date === undefined ? NaN : Date.parse(answer.headers.date);
        if (!Number.isNaN(date))
            this.platformOffset = date + 500 - this.options.clock.now();
    }
}
function isSuccess(target, status) {
    return target === 'auth' ? status === 200 : status >= 200 && status <= 299;
}
function seconds(ms) {
    return `${(ms / 1000).toFixed(1)} s`;
}
function notSent(deadline, request) {
    return new errors/* DeadlineError */.j3(`${stopped(deadline.cause())} before ${requestLine(request)} was sent.`);
}

;// CONCATENATED MODULE: ./src/platform/client.ts








class PlatformClient {
    options;
    clock;
    transport;
    loop;
    constructor(options) {
        this.options = options;
        this.clock = options.clock ?? systemClock;
        this.transport = options.transport ?? new HttpTransport();
        this.loop = new CallLoop({
            transport: this.transport,
            timeoutMs: options.timeoutMs,
            deadline: options.deadline ?? new Deadline(this.clock, 0),
            retries: options.retries,
            secrets: options.secrets,
            log: options.log,
            clock: this.clock,
            backoff: options.backoff ?? DEFAULT_BACKOFF,
            accessTokens: (loop) => new Session(() => this.authenticate(loop), () => this.clock.now()),
        });
    }
    async createToken(name, { save } = {}) {
        const request = this.apiRequest('POST', TOKENS_PATH, JSON.stringify({ name }));
        const create = new FollowedCreate(name, {
            clock: this.clock,
            log: this.options.log,
            list: () => this.listTokens(),
            revoke: (tokenId) => this.revokeToken(tokenId),
            platformTime: this.platformTime,
            save: save ?? (() => undefined),
            postStepLooks: save !== undefined,
        });
        try {
            const token = await this.loop.call('api', request, {
                read: (answer) => readCreated(request, answer),
                onWritten: () => {
                    create.written();
                },
                onUncertain: (failure) => create.afterLostAnswer(failure),
            });
            return await create.accept(token, requestLine(request));
        }
        catch (error) {
            create.failed(error);
            throw error;
        }
    }
    listTokens() {
        const request = this.apiRequest('GET', TOKENS_PATH);
        return this.loop.call('api', request, { read: (answer) => readList(request, answer) });
    }
    async revokeToken(tokenId, options = {}) {
        const request = this.apiRequest('POST', revokePath(tokenId));
        let mayHaveRevoked = false;
        try {
            const token = await this.loop.call('api', request, {
                read: (answer) => readRevoked(request, answer, tokenId),
                onUncertain: () => {
                    mayHaveRevoked = true;
                    return Promise.resolve(undefined);
                },
                ...(options.pooled && { pooled: options.pooled }),
            });
            return { token, alreadyRevoked: false };
        }
        catch (error) {
            const status = error instanceof errors/* RequestError */.GI ? error.status : undefined;
            if (status === undefined || status === 401 || error instanceof errors/* AuthenticationError */.v3)
                throw error;
            if (!((0,errors/* isRefusal */.vu)(status) || (status >= 200 && status <= 299)))
                throw error;
            const unsettled = new errors/* UnsettledRevokeError */.V0(error, mayHaveRevoked);
            if (options.settle === 'later')
                throw unsettled;
            const [settled] = await settleRefusals(() => this.listTokens(), [{ tokenId, unsettled }]);
            if (settled === undefined || 'error' in settled)
                throw settled?.error ?? error;
            return settled;
        }
    }
    close() {
        this.transport.close();
    }
    platformTime = (at) => this.loop.platformTime(at);
    apiRequest(method, path, body) {
        return jsonRequest(method, this.options.baseUrl + path, body);
    }
    async authenticate(loop) {
        const { clientId, clientSecret, authUrl } = this.options;
        const endpoint = authEndpoint(authUrl);
        const request = jsonRequest('POST', endpoint, JSON.stringify({ clientId, secret: clientSecret }));
        try {
            return await loop.call('auth', request, {
                read: (answer) => readAccessToken(request, answer, this.clock.now()),
            });
        }
        catch (error) {
            if (!(error instanceof errors/* RequestError */.GI))
                throw error;
            const { status, transient } = error;
            const detail = status === 404 || status === 405
                ? `failed: ${error.message} ${authPathHint(endpoint)}`
                : (0,errors/* isRefusal */.vu)(status)
                    ? `was refused: ${error.message} Check the clientId and clientSecret inputs. ${errors/* FORK_HINT */.DS}`
                    : `failed: ${error.message}`;
            throw new errors/* AuthenticationError */.v3(`authentication ${detail}`, status, transient);
        }
    }
}
class Session {
    obtain;
    now;
    pending;
    constructor(obtain, now) {
        this.obtain = obtain;
        this.now = now;
    }
    async accessToken() {
        const current = this.pending;
        if (current !== undefined) {
            const token = await current;
            if (token.renewAt === undefined || this.now() < token.renewAt)
                return token.value;
            if (this.pending === current)
                this.pending = undefined;
        }
        if (this.pending === undefined) {
            const pending = this.obtain();
            this.pending = pending;
            pending.catch(() => {
                if (this.pending === pending)
                    this.pending = undefined;
            });
        }
        return (await this.pending).value;
    }
    async reject(value) {
        const current = this.pending;
        const token = await current?.catch(() => undefined);
        if (token?.value === value && this.pending === current)
            this.pending = undefined;
    }
}
async function settleRefusals(list, unsettled) {
    if (unsettled.length === 0)
        return [];
    let tokens;
    try {
        tokens = await list();
    }
    catch (error) {
        const why = ` Whether it was revoked already could not be told: listing the tokens failed too: ${(0,errors/* messageOf */.bD)(error)}`;
        return unsettled.map(({ unsettled: { refusal } }) => ({
            error: new errors/* RequestError */.GI(refusal.message + why, refusal.status),
        }));
    }
    return unsettled.map(({ tokenId, unsettled: { refusal, mayHaveRevoked } }) => {
        const found = findById(tokens, tokenId);
        if (found === undefined) {
            const message = `no token with id ${tokenId} exists in the project: ${refusal.message}`;
            return { error: new errors/* UnknownTokenError */.YP(message, refusal.status) };
        }
        if (found.state === 'revoked')
            return { token: found, alreadyRevoked: !mayHaveRevoked };
        return { error: refusal };
    });
}

;// CONCATENATED MODULE: ./src/operations/cleanup-plan.ts

function planCleanup(tokens, task, now) {
    const matches = task.name === undefined ? () => true : nameMatcher(task.name);
    const anyName = task.name === undefined || /^\*+$/.test(task.name);
    const byName = new Map();
    const revoke = [];
    const kept = [];
    for (const token of tokens) {
        if (token.state !== 'active')
            continue;
        if (token.name === undefined) {
            if (anyName)
                kept.push({ token, why: 'unreadable name' });
            continue;
        }
        if (!matches(token.name))
            continue;
        const group = byName.get(token.name) ?? [];
        group.push(token);
        byName.set(token.name, group);
    }
    const ageMatters = task.olderThan !== undefined || task.keep > 0;
    const older = task.olderThan?.ms;
    for (const group of byName.values()) {
        const readable = newestFirst(group.filter((token) => createdTime(token) !== undefined));
        const unreadable = group.filter((token) => createdTime(token) === undefined);
        if (ageMatters) {
            kept.push(...unreadable.map((token) => ({ token, why: 'unreadable date' })));
        }
        else {
            revoke.push(...unreadable);
        }
        const lastKept = readable[Math.min(task.keep, readable.length) - 1];
        const boundary = lastKept === undefined ? undefined : createdTime(lastKept);
        for (const token of readable) {
            const created = createdTime(token) ?? now;
            if (older !== undefined && now - created <= older)
                continue;
            if (boundary !== undefined && created >= boundary)
                kept.push({ token, why: 'keep' });
            else
                revoke.push(token);
        }
    }
    return {
        revoke: newestFirst(revoke),
        kept: newestFirstBy(kept, ({ token }) => token),
    };
}
function nameMatcher(pattern) {
    if (!pattern.includes('*'))
        return (name) => name === pattern;
    const firstStar = pattern.indexOf('*');
    const lastStar = pattern.lastIndexOf('*');
    const first = pattern.slice(0, firstStar);
    const last = pattern.slice(lastStar + 1);
    const middle = pattern.slice(firstStar + 1, lastStar).split('*');
    return (name) => {
        if (name === undefined)
            return false;
        if (!name.startsWith(first) || !name.endsWith(last))
            return false;
        let at = first.length;
        const end = name.length - last.length;
        for (const part of middle) {
            const found = name.indexOf(part, at);
            if (found === -1 || found + part.length > end)
                return false;
            at = found + part.length;
        }
        return true;
    };
}

;// CONCATENATED MODULE: ./src/operations/pool.ts
const UNDER = 0.9;
const WINDOW_MS = 1_000;
const MIN_WINDOW_MS = 100;
class Pool {
    clock;
    deadline;
    log;
    limit;
    deepest = 0;
    gap = 0;
    nextSendAt = 0;
    admittedAt = [];
    startedAt;
    inFlight = new Set();
    constructor(concurrency, clock, deadline, log) {
        this.clock = clock;
        this.deadline = deadline;
        this.log = log;
        this.limit = concurrency;
    }
    async run(items, send, left) {
        const results = new Array(items.length);
        let next = 0;
        let waiting = [];
        let bug;
        let wake = new AbortController();
        const woken = () => {
            wake.abort();
            wake = new AbortController();
        };
        this.deadline.stopSignal.addEventListener('abort', woken);
        const start = (entry) => {
            const request = { beside: [...this.inFlight] };
            this.inFlight.add(request);
            this.startedAt ??= this.clock.now();
            this.nextSendAt = this.clock.now() + this.gap;
            send(entry.item, entry.attemptsUsed)
                .then((sent) => {
                this.inFlight.delete(request);
                request.admitted = 'done' in sent;
                const depth = 1 + request.beside.filter((other) => other.admitted !== false).length;
                request.beside = [];
                if ('done' in sent) {
                    results[entry.index] = sent.done;
                    this.admitted(depth);
                    return;
                }
                this.throttled(depth);
                entry.attemptsUsed = sent.throttled.attemptsUsed;
                const { waitMs } = sent.throttled;
                entry.notBefore =
                    this.clock.now() + waitMs + this.clock.jitter() * Math.min(100, 10 + waitMs / 40);
                if (entry.notBefore >= this.clock.now() + this.deadline.remaining())
                    results[entry.index] = left(entry.item);
                else
                    waiting.push(entry);
            })
                .catch((error) => {
                this.inFlight.delete(request);
                bug = { error };
            })
                .finally(woken);
        };
        while (bug === undefined &&
            (next < items.length || waiting.length > 0 || this.inFlight.size > 0)) {
            const now = this.clock.now();
            if (this.deadline.expired()) {
                for (const entry of waiting)
                    results[entry.index] = left(entry.item);
                for (; next < items.length; next++)
                    results[next] = left(items[next]);
                waiting = [];
                if (this.inFlight.size > 0)
                    await ended(wake.signal);
                continue;
            }
            const retry = waiting.reduce((first, entry) => first === undefined || entry.notBefore < first.notBefore ? entry : first, undefined);
            const ready = retry !== undefined && retry.notBefore <= now
                ? retry
                : next < items.length
                    ? { item: items[next], index: next, attemptsUsed: 0, notBefore: now }
                    : undefined;
            const free = this.inFlight.size < this.limit;
            if (ready !== undefined && free && this.nextSendAt <= now) {
                if (ready === retry)
                    waiting = waiting.filter((entry) => entry !== retry);
                else
                    next++;
                start(ready);
                continue;
            }
            const readyAt = ready !== undefined ? now : (retry?.notBefore ?? Infinity);
            const wakeAt = free ? Math.max(readyAt, this.nextSendAt) : Infinity;
            if (wakeAt === Infinity)
                await ended(wake.signal);
            else
                await this.clock.sleep(wakeAt - now, wake.signal);
        }
        this.deadline.stopSignal.removeEventListener('abort', woken);
        if (bug !== undefined)
            throw bug.error;
        return results;
    }
    admitted(depth) {
        this.deepest = Math.max(this.deepest, depth);
        this.admittedAt.push(this.clock.now());
    }
    throttled(depth) {
        const now = this.clock.now();
        if (depth > this.deepest) {
            const limit = Math.max(1, this.deepest);
            if (limit < this.limit) {
                this.limit = limit;
                this.log.info(`The platform turns away more than ${limit} revokes in flight: sending ${limit} at a time.`);
            }
            return;
        }
        while ((this.admittedAt[0] ?? now) < now - WINDOW_MS)
            this.admittedAt.shift();
        const windowMs = Math.max(MIN_WINDOW_MS, Math.min(WINDOW_MS, now - (this.startedAt ?? now)));
        const letIn = Math.max(0.2, (this.admittedAt.length * 1000 * UNDER) / windowMs);
        const gap = Math.max(this.gap / UNDER, 1000 / letIn);
        if (this.gap === 0) {
            this.log.info('The platform limits the rate of requests: sending revokes a little slower than it lets them in.');
        }
        this.gap = gap;
        this.nextSendAt = Math.max(this.nextSendAt, now + gap);
    }
}
function ended(signal) {
    return new Promise((resolve) => {
        if (signal.aborted)
            resolve();
        else
            signal.addEventListener('abort', () => {
                resolve();
            }, { once: true });
    });
}

;// CONCATENATED MODULE: ./src/operations/cleanup.ts





async function cleanup(client, task, { clock, log, deadline }) {
    const tokens = await client.listTokens();
    const runnerNow = clock.now();
    const platformNow = client.platformTime(runnerNow);
    const now = platformNow ?? runnerNow;
    const ages = platformNow === undefined
        ? { by: 'runner' }
        : { by: 'platform', skewMs: platformNow - runnerNow };
    const plan = planCleanup(tokens, task, now);
    const result = {
        operation: 'cleanup',
        kept: plan.kept,
        now,
        ages,
    };
    if (task.dryRun) {
        const stop = deadline.cause();
        return { ...result, revoked: plan.revoke, revokedElsewhere: [], notRevoked: [], left: [], stop };
    }
    const pool = new Pool(task.concurrency, clock, deadline, log);
    const ends = await pool.run(plan.revoke, async (token, attemptsUsed) => {
        try {
            const options = { pooled: { attemptsUsed }, settle: 'later' };
            return { done: { token, revoked: (await client.revokeToken(token.id, options)).token } };
        }
        catch (error) {
            if (error instanceof errors/* ThrottledError */.Xe)
                return { throttled: error.throttle };
            if (error instanceof errors/* UnsettledRevokeError */.V0)
                return { done: { token, unsettled: error } };
            if (!(error instanceof errors/* RequestError */.GI))
                throw error;
            if (error instanceof errors/* DeadlineError */.j3 && !error.mayHaveTakenEffect)
                return { done: { token } };
            return { done: { token, reason: error.message } };
        }
    }, (token) => ({ token }));
    const refused = ends.filter((end) => end.unsettled !== undefined);
    const settled = await settleRefusals(() => client.listTokens(), refused.flatMap(({ token, unsettled }) => unsettled === undefined ? [] : [{ tokenId: token.id, unsettled }]));
    refused.forEach((end, i) => {
        const outcome = settled[i];
        if (outcome === undefined)
            return;
        if ('error' in outcome)
            end.reason = outcome.error.message;
        else if (outcome.alreadyRevoked)
            end.elsewhere = outcome.token;
        else
            end.revoked = outcome.token;
    });
    const of = (pick) => newestFirst(ends.flatMap((end) => pick(end) ?? []));
    return {
        ...result,
        revoked: of((end) => end.revoked),
        revokedElsewhere: of((end) => end.elsewhere),
        notRevoked: newestFirstBy(ends.flatMap(({ token, reason }) => (reason === undefined ? [] : [{ token, reason }])), ({ token }) => token),
        left: ends.flatMap((end) => (end.unsettled ?? end.revoked ?? end.elsewhere ?? end.reason) === undefined
            ? [end.token]
            : []),
        stop: deadline.cause(),
    };
}

;// CONCATENATED MODULE: ./src/operations/index.ts




async function perform(client, task, context) {
    switch (task.operation) {
        case 'create':
            return { operation: 'create', task, result: await create(client, task, context.create) };
        case 'list': {
            const all = await client.listTokens();
            const matches = task.name === undefined ? () => true : nameMatcher(task.name);
            const tokens = all.filter((token) => matches(token.name) && (task.state === 'all' || token.state === task.state));
            const result = { operation: 'list', tokens: newestFirst(tokens), total: all.length };
            return { operation: 'list', task, result };
        }
        case 'revoke': {
            const { token, alreadyRevoked } = await client.revokeToken(task.tokenId);
            return { operation: 'revoke', task, result: { operation: 'revoke', token, alreadyRevoked } };
        }
        case 'cleanup':
            return { operation: 'cleanup', task, result: await cleanup(client, task, context) };
    }
}

;// CONCATENATED MODULE: ./src/platform/project-guard.ts




class ProjectGuard {
    api;
    expected;
    checked = new Set();
    constructor(api, expected) {
        this.api = api;
        this.expected = expected;
    }
    async listTokens() {
        const tokens = await this.api.listTokens();
        const other = tokens.find((token) => !this.isExpected(token));
        if (other !== undefined) {
            throw new errors/* ActionError */.lZ(`the platform listed ${nameAndId(other)} of project ${projectOf(other)}, but expectedProjectId is ${this.expected}: these credentials reach another project. Nothing was revoked or created; check clientId, clientSecret and baseUrl.`);
        }
        for (const token of tokens)
            this.checked.add(token.id.toLowerCase());
        return tokens;
    }
    async createToken(name, options) {
        const token = await this.api.createToken(name, options);
        if (this.isExpected(token)) {
            this.checked.add(token.id.toLowerCase());
            return token;
        }
        const revoked = await revokeAtOnce((id) => this.api.revokeToken(id), token);
        throw new errors/* ActionError */.lZ(`the new token ${nameAndId(token)} belongs to project ${projectOf(token)}, but expectedProjectId is ${this.expected}: its value was not handed on. ${revoked} Check clientId, clientSecret and baseUrl.`);
    }
    async revokeToken(tokenId, options) {
        if (!this.checked.has(tokenId.toLowerCase()))
            await this.listTokens();
        return this.api.revokeToken(tokenId, options);
    }
    platformTime(runnerTime) {
        return this.api.platformTime(runnerTime);
    }
    isExpected(token) {
        return token.projectId?.toLowerCase() === this.expected.toLowerCase();
    }
}
function projectOf(token) {
    return token.projectId === undefined ? '(none given)' : (0,shared_text/* truncate */.xv)((0,shared_text/* oneLine */.TN)(token.projectId), 80);
}

;// CONCATENATED MODULE: ./src/post/state.ts
const CREATE = 'create';
const TOKEN_FILE = 'tokenFile';
class PostState {
    runner;
    constructor(runner) {
        this.runner = runner;
    }
    createSaver(when) {
        return (facts) => {
            this.runner.saveState(CREATE, JSON.stringify({ ...facts, when }));
        };
    }
    tokenFile(path) {
        this.runner.saveState(TOKEN_FILE, path);
    }
}
function readSavedCreate(runner) {
    let saved;
    try {
        saved = JSON.parse(runner.getState(CREATE) || 'null');
    }
    catch {
        return undefined;
    }
    if (typeof saved !== 'object' || saved === null)
        return undefined;
    const { name, sentAt, written, id, refused, lost, when } = saved;
    if (typeof name !== 'string' || name === '' || !Number.isSafeInteger(sentAt))
        return undefined;
    return {
        name,
        sentAt: sentAt,
        written: written === true,
        ...(typeof id === 'string' && id !== '' ? { id } : {}),
        refused: refused === true,
        lost: lost === true,
        when: when === 'failure' ? 'failure' : 'always',
    };
}
function savedTokenFile(runner) {
    return runner.getState(TOKEN_FILE) || undefined;
}

;// CONCATENATED MODULE: ./src/report/markdown.ts

const SUMMARY_LIMIT_BYTES = 128 * 1024;
const RESERVE_BYTES = 4 * 1024;
class Summary {
    text = '';
    bytes = 0;
    constructor(heading) {
        this.block(`### ${heading}`);
    }
    paragraph(markdown) {
        this.block(markdown);
        return this;
    }
    table(heading, columns, items, row, whereAll) {
        if (items.length === 0)
            return this;
        const head = `#### ${heading}\n\n| ${columns.join(' | ')} |\n|${' --- |'.repeat(columns.length)}\n`;
        let shown = 0;
        if (this.add(head))
            for (const item of items) {
                if (!this.add(`| ${row(item).join(' | ')} |\n`, RESERVE_BYTES))
                    break;
                shown++;
            }
        const omitted = items.length - shown;
        if (omitted > 0)
            this.add(`\n${omitted} more not shown: a step summary must stay under 128 KiB; ${whereAll}.\n`);
        this.add('\n');
        return this;
    }
    toString() {
        return this.text;
    }
    block(markdown) {
        if (this.add(`${markdown}\n\n`))
            return;
        const cut = cutMarkdown(markdown, SUMMARY_LIMIT_BYTES - 1 - RESERVE_BYTES - this.bytes - 2);
        if (cut !== undefined)
            this.add(`${cut}\n\n`);
    }
    add(text, reserve = 0) {
        const bytes = Buffer.byteLength(text);
        if (this.bytes + bytes + reserve >= SUMMARY_LIMIT_BYTES)
            return false;
        this.text += text;
        this.bytes += bytes;
        return true;
    }
}
const PIECE = /<(\/?)([a-z]+)>|&#?[a-z0-9]+;|[\s\S]/giu;
function cutMarkdown(markdown, maxBytes) {
    if (Buffer.byteLength(markdown) <= maxBytes)
        return markdown;
    const closers = (open) => open
        .map((tag) => `</${tag}>`)
        .reverse()
        .join('');
    let open = [];
    let kept = '';
    let bytes = 0;
    for (const [piece, slash, tag] of markdown.matchAll(PIECE)) {
        const next = tag === undefined ? open : slash ? open.slice(0, -1) : [...open, tag];
        const size = Buffer.byteLength(piece);
        if (bytes + size + Buffer.byteLength(`...${closers(next)}`) > maxBytes)
            break;
        kept += piece;
        bytes += size;
        open = next;
    }
    const cut = `${kept}...${closers(open)}`;
    return Buffer.byteLength(cut) <= maxBytes ? cut : undefined;
}
const markdownSpecial = (0,shared_text/* lazyRegExp */.eN)(() => /[&<>"|`\\*[\]~$]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu);
const MAYBE_SPECIAL = /[&<>"|`\\*[\]~$_]/;
function escapeMarkdown(value) {
    const line = (0,shared_text/* oneLine */.TN)(value);
    if (!MAYBE_SPECIAL.test(line))
        return line;
    return line.replace(markdownSpecial(), (c) => `&#${c.charCodeAt(0)};`);
}

;// CONCATENATED MODULE: ./src/report/wording.ts



function leftBecause({ stop }) {
    return stop.by === 'cancel' ? 'the step was cancelled' : 'totalTimeout ran out';
}
function keptByKeep(keep) {
    const which = keep === 1 ? 'the newest of its name' : `one of the ${keep} newest of its name`;
    return `${which} (keep: ${keep}); keep: 0 revokes it too`;
}
const KEPT_NAMELESS = 'its name is not text, so which name it belongs to, and whether it is the newest of that name, cannot be told';
function revokeOnExitNote(when, reused = false) {
    if (when === 'never' || reused)
        return undefined;
    return when === 'always'
        ? 'It will be revoked at the end of the job (revokeOnExit).'
        : 'It will be revoked at the end of the job if the job does not succeed (revokeOnExit: failure).';
}
const CLOCK_SKEW_WARNING_MS = 5 * 60_000;
function ageClockNote({ ages }) {
    if (ages.by === 'runner') {
        return "The platform's answers carry no Date header: ages are measured on the runner's clock.";
    }
    if (Math.abs(ages.skewMs) <= CLOCK_SKEW_WARNING_MS)
        return undefined;
    const way = ages.skewMs > 0 ? 'behind' : 'ahead of';
    const apart = Math.round(Math.abs(ages.skewMs) / 60_000) * 60_000;
    return `The runner's clock is ${(0,shared_text/* formatAge */.nV)(apart)} ${way} the platform's (by the Date header of its list answer): ages are measured on the platform's clock.`;
}
function allRevoked({ revoked, revokedElsewhere }) {
    return revokedElsewhere.length === 0 ? revoked : newestFirst([...revoked, ...revokedElsewhere]);
}
function revokedElsewhereNote(token) {
    const at = token.revokedAt ? ` at ${(0,shared_text/* oneLine */.TN)(token.revokedAt)}` : '';
    const by = token.revokedBy ? ` by ${(0,shared_text/* truncate */.xv)((0,shared_text/* oneLine */.TN)(token.revokedBy), 80)}` : '';
    return `was revoked by someone else meanwhile${at}${by} (another job, or a person): counted as revoked`;
}
function cleanupOutcome(result, { dryRun }) {
    const { revoked, revokedElsewhere, notRevoked, left } = result;
    if (dryRun)
        return `Dry run: ${(0,shared_text/* countTokens */.ih)(revoked.length)} would be revoked; nothing was revoked.`;
    const elsewhere = revokedElsewhere.length > 0
        ? `; ${revokedElsewhere.length} more had been revoked by someone else meanwhile`
        : '';
    const failed = notRevoked.length > 0 ? `; ${notRevoked.length} could not be revoked` : '';
    const late = left.length > 0 ? `; ${left.length} left when ${leftBecause(result)}` : '';
    return `Revoked ${(0,shared_text/* countTokens */.ih)(revoked.length)}${elsewhere}${failed}${late}.`;
}
function stepFailure(outcome) {
    if (outcome.operation !== 'cleanup')
        return undefined;
    const failures = [timeoutFailure(outcome.result), cleanupFailure(outcome.result)];
    const text = failures.filter((failure) => failure !== undefined).join(' ');
    return text === '' ? undefined : text;
}
function timeoutFailure(result) {
    const { left, revoked, stop } = result;
    if (left.length === 0)
        return undefined;
    return `${stopped(stop)}: ${(0,shared_text/* countTokens */.ih)(revoked.length)} revoked, ${left.length} left active; run the cleanup again to revoke them.`;
}
function cleanupFailure(result) {
    const { notRevoked } = result;
    if (notRevoked.length === 0)
        return undefined;
    const revoked = allRevoked(result);
    const shown = notRevoked.slice(0, 5).map(({ token, reason }) => `${nameAndId(token)}: ${reason}`);
    const more = notRevoked.length > shown.length
        ? ` And ${notRevoked.length - shown.length} more: each has a warning above, and the job summary lists them.`
        : '';
    const total = notRevoked.length + revoked.length;
    const were = (n) => (n === 1 ? 'was' : 'were');
    return `${notRevoked.length} of ${(0,shared_text/* countTokens */.ih)(total)} ${were(notRevoked.length)} not revoked (the other ${revoked.length} ${were(revoked.length)}): ${shown.join(' ')}${more}`;
}

;// CONCATENATED MODULE: ./src/report/summary.ts




const FIELD_CHARACTERS = 200;
const ALL_IN_TOKENS_FILE = 'the file named by the <code>tokensFile</code> output has all of them';
function createSummary(result, task) {
    const { token, reused } = result;
    const { envName } = task;
    const where = envName
        ? `the step output <code>tokenValue</code> and the environment variable <code>${field(envName)}</code>`
        : 'the step output <code>tokenValue</code>';
    const mediator = token.mediatorId ? ` for mediator <code>${field(token.mediatorId)}</code>` : '';
    const what = reused
        ? `Reused ${describeToken(token)}${mediator}, created ${date(token.createdAt)}: no new token was created.`
        : `Created ${describeToken(token)}${mediator}.`;
    const note = revokeOnExitNote(task.revokeOnExit, reused);
    const exit = note === undefined ? '' : ` ${note}`;
    return new Summary(reused ? 'Gateway token reused' : 'Gateway token created')
        .paragraph(`${what} Its value is in ${where}, masked in the log.${exit}`)
        .toString();
}
function revokeSummary(result) {
    const { token, alreadyRevoked } = result;
    const when = token.revokedAt ? ` at ${date(token.revokedAt)}` : '';
    const what = alreadyRevoked
        ? `The ${describeToken(token)} was already revoked${when}; nothing changed.`
        : `Revoked ${describeToken(token)}${when}.`;
    return new Summary('Gateway token revoked').paragraph(what).toString();
}
function listSummary(result, task) {
    const { tokens, total } = result;
    const filters = [
        task.name === undefined ? undefined : `name <code>${field(task.name)}</code>`,
        task.state === 'all' ? undefined : `state <code>${task.state}</code>`,
    ].filter((filter) => filter !== undefined);
    const matching = filters.length > 0 ? ` match ${filters.join(' and ')}` : '';
    return new Summary('Gateway tokens')
        .paragraph(`${tokens.length} of ${(0,shared_text/* countTokens */.ih)(total)}${matching}.`)
        .table('Tokens', ['Name', 'Id', 'State', 'Created', 'Created by', 'Revoked'], tokens, (t) => [
        summary_name(t),
        code(t.id),
        field(t.state),
        date(t.createdAt),
        creator(t),
        date(t.revokedAt),
    ], ALL_IN_TOKENS_FILE)
        .toString();
}
function cleanupSummary(result, task) {
    const { revoked, kept, notRevoked, left, now } = result;
    const selection = [
        task.name === undefined
            ? 'active tokens of any name'
            : `active tokens named <code>${field(task.name)}</code>`,
        task.olderThan === undefined ? undefined : `older than ${field(task.olderThan.text)}`,
        task.keep > 0 ? `keeping the ${task.keep} newest of each name` : undefined,
    ].filter((part) => part !== undefined);
    const age = (token) => {
        const created = createdTime(token);
        return created === undefined ? 'unknown' : (0,shared_text/* formatAge */.nV)(now - created);
    };
    return new Summary(task.dryRun ? 'Gateway token cleanup (dry run)' : 'Gateway token cleanup')
        .paragraph([`Selected ${selection.join(', ')}.`, cleanupOutcome(result, task), ageClockNote(result)]
        .filter((sentence) => sentence !== undefined)
        .join(' '))
        .table('Not revoked', ['Name', 'Id', 'Why'], notRevoked, ({ token, reason }) => [summary_name(token), code(token.id), field(reason)], 'each has a warning in the log')
        .table(`Left active: ${leftBecause(result)}`, ['Name', 'Id', 'Age'], left, (t) => [summary_name(t), code(t.id), age(t)], 'run the cleanup again to revoke them')
        .table(task.dryRun ? 'Would revoke' : 'Revoked', ['Name', 'Id', 'Age', 'Created by'], revoked, (t) => [summary_name(t), code(t.id), age(t), creator(t)], ALL_IN_TOKENS_FILE)
        .table('Revoked by someone else meanwhile', ['Name', 'Id', 'Revoked', 'By'], result.revokedElsewhere, (t) => [summary_name(t), code(t.id), date(t.revokedAt), field(t.revokedBy ?? '')], ALL_IN_TOKENS_FILE)
        .table('Kept', ['Name', 'Id', 'Age', 'Why'], kept, ({ token, why }) => [
        summary_name(token),
        code(token.id),
        age(token),
        field(why === 'keep'
            ? keptByKeep(task.keep)
            : why === 'unreadable name'
                ? KEPT_NAMELESS
                : 'its createdAt cannot be read'),
    ], 'the log says how many were kept')
        .toString();
}
function describeToken(token) {
    return `gateway token <strong>${summary_name(token)}</strong> (${code(token.id)})`;
}
function summary_name(token) {
    return token.name === undefined ? `<em>${NO_NAME}</em>` : field(token.name);
}
function creator(token) {
    return field(token.createdByEmail ?? token.createdBy ?? '');
}
function code(value) {
    return `<code>${field(value)}</code>`;
}
function date(iso) {
    if (iso === undefined)
        return '';
    const time = readTimestamp(iso);
    if (time === undefined)
        return field(iso);
    return new Date(time).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}
function field(value) {
    return escapeMarkdown((0,shared_text/* truncate */.xv)((0,shared_text/* oneLine */.TN)(value), FIELD_CHARACTERS));
}

;// CONCATENATED MODULE: external "node:crypto"
const external_node_crypto_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");
;// CONCATENATED MODULE: external "node:fs"
const external_node_fs_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");
;// CONCATENATED MODULE: external "node:path"
const external_node_path_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");
;// CONCATENATED MODULE: ./src/shared/token-files.ts



const TOKEN_FILE_NAME = /^gateway-token-[0-9a-f]{32}$/;
const randomName = (prefix, suffix = '') => `${prefix}${(0,external_node_crypto_namespaceObject.randomBytes)(16).toString('hex')}${suffix}`;
function newTokenFilePath(dir) {
    return (0,external_node_path_namespaceObject.join)((0,external_node_path_namespaceObject.resolve)(dir), randomName('gateway-token-'));
}
function writeTokenFile(path, value) {
    writeNewFile(path, value, 0o600);
}
function writeTokensFile(dir, json) {
    const path = (0,external_node_path_namespaceObject.join)((0,external_node_path_namespaceObject.resolve)(dir), randomName('gateway-tokens-', '.json'));
    writeNewFile(path, json, 0o600);
    return path;
}
function writeNewFile(path, content, mode) {
    const fd = (0,external_node_fs_namespaceObject.openSync)(path, 'wx', mode);
    try {
        (0,external_node_fs_namespaceObject.fchmodSync)(fd, mode);
        (0,external_node_fs_namespaceObject.writeFileSync)(fd, content);
    }
    finally {
        (0,external_node_fs_namespaceObject.closeSync)(fd);
    }
}
function removeTokenFile(path, dir) {
    if (resolve(path) !== path ||
        dirname(path) !== resolve(dir) ||
        !TOKEN_FILE_NAME.test(basename(path))) {
        throw new Error(`it is not a token file of this action in ${resolve(dir)}.`);
    }
    try {
        if (!lstatSync(path).isFile())
            throw new Error('it is no longer a plain file.');
        unlinkSync(path);
        return true;
    }
    catch (error) {
        if (error.code === 'ENOENT')
            return false;
        throw error;
    }
}

;// CONCATENATED MODULE: ./src/report/report.ts






const MAX_OUTPUT_BYTES = 1_048_576;
const MAX_ENV_VALUE_BYTES = 32 * 1024;
async function report(outcome, options, runner) {
    let summary;
    switch (outcome.operation) {
        case 'create': {
            const { task, result } = outcome;
            reportCreate(result, task, options.postState, runner);
            summary = createSummary(result, task);
            break;
        }
        case 'list': {
            const { task, result } = outcome;
            const { tokens, total } = result;
            runner.info(`${tokens.length} of ${(0,shared_text/* countTokens */.ih)(total)} match.`);
            listOutputs(runner, tokens);
            summary = listSummary(result, task);
            break;
        }
        case 'revoke': {
            const { result } = outcome;
            const { token, alreadyRevoked } = result;
            if (alreadyRevoked) {
                const when = token.revokedAt ? ` at ${(0,shared_text/* oneLine */.TN)(token.revokedAt)}` : '';
                runner.notice(`The ${tokenLabel(token)} was already revoked${when}; nothing to do.`);
            }
            else {
                runner.info(`Revoked ${tokenLabel(token)}.`);
            }
            recordOutputs(runner, token);
            runner.setOutput('revokedAt', token.revokedAt ?? '');
            runner.setOutput('revokedBy', token.revokedBy ?? '');
            summary = revokeSummary(result);
            break;
        }
        case 'cleanup': {
            const { task, result } = outcome;
            reportCleanup(result, task, runner);
            summary = cleanupSummary(result, task);
            break;
        }
    }
    if (!options.summary)
        return;
    try {
        await runner.writeSummary(summary);
    }
    catch (error) {
        runner.warning(`Could not write the job summary: ${(0,errors/* messageOf */.bD)(error)}`);
    }
}
function reportCreate(result, task, postState, runner) {
    const { token, reused } = result;
    const { envName } = task;
    checkHandOver(token.tokenValue ?? '', envName);
    runner.info(reused
        ? `Reused the ${tokenLabel(token)}, created ${(0,shared_text/* oneLine */.TN)(token.createdAt ?? 'at an unknown time')}.`
        : `Created ${tokenLabel(token)}.`);
    const exit = revokeOnExitNote(task.revokeOnExit, reused);
    if (exit !== undefined)
        runner.info(exit);
    if (reused && task.revokeOnExit !== 'never')
        runner.info('revokeOnExit does not apply: the token was reused, not created by this step.');
    recordOutputs(runner, token);
    runner.setOutput('tokenValue', token.tokenValue ?? '');
    runner.setOutput('reused', String(reused));
    runner.setOutput('tokenFile', task.writeTokenFile ? tokenFile(runner, postState, token) : '');
    if (envName) {
        runner.exportVariable(envName, token.tokenValue ?? '');
        runner.info(`The token value is in the environment variable ${envName} for later steps (masked).`);
    }
}
function checkHandOver(value, envName) {
    const bytes = Buffer.byteLength(value);
    if (bytes > MAX_OUTPUT_BYTES) {
        throw new errors/* ActionError */.lZ(`the token value is ${bytes} bytes, over the runner's limit of 1 MiB for one output (tokenValue).`);
    }
    if (envName !== undefined && bytes > MAX_ENV_VALUE_BYTES) {
        throw new errors/* ActionError */.lZ(`the token value is ${bytes} bytes, too large for an environment variable (envName ${envName}: at most ${MAX_ENV_VALUE_BYTES} bytes, or later steps and the post step cannot start). Use writeTokenFile: true and read the value from the file.`);
    }
}
function reportCleanup(result, task, runner) {
    const { revoked, kept, notRevoked, now } = result;
    const clock = ageClockNote(result);
    if (clock !== undefined) {
        if (result.ages.by === 'runner')
            runner.info(clock);
        else
            runner.warning(clock);
    }
    const age = (token) => {
        const created = createdTime(token);
        return created === undefined ? '' : `, ${(0,shared_text/* formatAge */.nV)(now - created)} old`;
    };
    for (const { token, why } of kept) {
        if (why === 'keep') {
            runner.info(`Kept ${tokenLabel(token)}${age(token)}: ${keptByKeep(task.keep)}.`);
        }
        else if (why === 'unreadable name') {
            runner.warning(`Token ${nameAndId(token)} is not revoked: ${KEPT_NAMELESS}. Revoke it by its id (operation: revoke) if nothing uses it.`);
        }
        else {
            runner.warning(`Token ${nameAndId(token)} has a createdAt that cannot be read (${JSON.stringify(token.createdAt ?? null)}): its age is unknown, so it is not revoked.`);
        }
    }
    const verb = task.dryRun ? 'Would revoke' : 'Revoked';
    for (const token of revoked)
        runner.info(`${verb} ${tokenLabel(token)}${age(token)}.`);
    for (const token of result.revokedElsewhere)
        runner.info(`The ${tokenLabel(token)} ${revokedElsewhereNote(token)}.`);
    for (const { token, reason } of notRevoked)
        runner.warning(`Could not revoke ${tokenLabel(token)}: ${reason}`);
    runner.info(`${cleanupOutcome(result, task)} Kept ${kept.length}.`);
    listOutputs(runner, allRevoked(result));
}
function recordOutputs(runner, token) {
    runner.setOutput('tokenId', token.id);
    runner.setOutput('name', token.name ?? '');
    runner.setOutput('mediatorId', token.mediatorId ?? '');
    runner.setOutput('projectId', token.projectId ?? '');
    runner.setOutput('state', token.state);
    runner.setOutput('createdAt', token.createdAt ?? '');
    runner.setOutput('token', publicJson(token));
}
function tokenFile(runner, postState, token) {
    const path = newTokenFilePath(runner.tempDir());
    postState.tokenFile(path);
    try {
        writeTokenFile(path, token.tokenValue ?? '');
    }
    catch (error) {
        throw new errors/* ActionError */.lZ(`could not write the token value to ${path} (writeTokenFile): ${(0,shared_text/* asSentence */.KG)((0,errors/* messageOf */.bD)(error))}`);
    }
    return path;
}
function listOutputs(runner, tokens) {
    const json = publicJson(tokens);
    const bytes = Buffer.byteLength(json);
    runner.setOutput('count', String(tokens.length));
    if (bytes <= MAX_OUTPUT_BYTES)
        runner.setOutput('tokens', json);
    let path;
    try {
        path = writeTokensFile(runner.tempDir(), json);
    }
    catch (error) {
        throw new errors/* ActionError */.lZ(`could not write the records to a file in ${runner.tempDir()} (tokensFile): ${(0,shared_text/* asSentence */.KG)((0,errors/* messageOf */.bD)(error))}`);
    }
    runner.setOutput('tokensFile', path);
    if (bytes > MAX_OUTPUT_BYTES) {
        runner.warning(`The tokens output would be ${bytes} bytes, over the runner's 1 MiB limit for one output: it is left empty; read tokensFile (${path}) instead.`);
        runner.setOutput('tokens', '');
    }
}

// EXTERNAL MODULE: ./src/runner/github-runner.ts + 14 modules
var github_runner = __nccwpck_require__(307);
;// CONCATENATED MODULE: ./src/shared/secrets.ts

const SECRET_FIELDS = new Set([
    'access_token',
    'accessToken',
    'refresh_token',
    'refreshToken',
    'id_token',
    'secret',
    'clientSecret',
    'tokenValue',
]);
const PIECE_LENGTH = 8;
const MAX_PIECED = 16 * 1024;
class Secrets {
    mask;
    values = new Set();
    sent = new Set();
    longestFirst;
    pieces;
    constructor(mask) {
        this.mask = mask;
    }
    add(value, kind = 'sent') {
        if (value === undefined || value.trim() === '')
            return;
        if (kind === 'sent' && !this.sent.has(value)) {
            this.sent.add(value);
            this.pieces = undefined;
        }
        const lines = /[\r\n]/.test(value) ? value.split(/\r\n|\r|\n/) : [];
        for (const part of [value, ...lines]) {
            if (part.trim() === '' || this.values.has(part))
                continue;
            this.mask(part);
            this.values.add(part);
            this.longestFirst = undefined;
        }
    }
    addFrom(json) {
        const pending = [json];
        for (let i = 0; i < pending.length; i++) {
            const value = pending[i];
            if (typeof value !== 'object' || value === null)
                continue;
            const fields = value;
            for (const key in fields) {
                const field = fields[key];
                if (typeof field === 'string') {
                    if (SECRET_FIELDS.has(key))
                        this.add(field, 'received');
                }
                else if (typeof field === 'object' && field !== null)
                    pending.push(field);
            }
        }
    }
    scrub(text) {
        if (this.values.size === 0)
            return text;
        const exact = this.removeWhole(text);
        const decoded = secrets_unescape(exact);
        if (decoded !== exact) {
            const hidden = this.hide(decoded);
            if (hidden !== decoded)
                return hidden;
        }
        return this.hide(exact);
    }
    removeWhole(text) {
        this.longestFirst ??= [...this.values].sort((a, b) => b.length - a.length);
        let result = text;
        for (const value of this.longestFirst) {
            if (result.includes(value))
                result = result.split(value).join('***');
        }
        return result;
    }
    hide(text) {
        const result = this.removeWhole(text);
        if (this.sent.size === 0)
            return result;
        return this.removePieces(result).replace(ENCODED_RUN, (run) => decodings(run).some((decoded) => this.holdsPiece(decoded)) ? '***' : run);
    }
    removePieces(text) {
        const { kept, from } = compact(text);
        const hidden = new Uint8Array(text.length);
        let found = false;
        for (let i = 0; i + PIECE_LENGTH <= kept.length; i++) {
            if (!this.piecesOf().has(kept.slice(i, i + PIECE_LENGTH)))
                continue;
            found = true;
            hidden.fill(1, from[i], (from[i + PIECE_LENGTH - 1] ?? 0) + 1);
        }
        if (!found)
            return text;
        let result = '';
        for (let i = 0; i < text.length; i++) {
            if (hidden[i] === 0)
                result += text.charAt(i);
            else if (i === 0 || hidden[i - 1] === 0)
                result += '***';
        }
        return result;
    }
    holdsPiece(text) {
        const { kept } = compact(text);
        for (let i = 0; i + PIECE_LENGTH <= kept.length; i++) {
            if (this.piecesOf().has(kept.slice(i, i + PIECE_LENGTH)))
                return true;
        }
        return false;
    }
    piecesOf() {
        if (this.pieces === undefined) {
            this.pieces = new Set();
            for (const value of this.sent) {
                const { kept } = compact(value.slice(0, MAX_PIECED));
                for (let end = PIECE_LENGTH; end <= kept.length; end++)
                    this.pieces.add(kept.slice(end - PIECE_LENGTH, end));
            }
        }
        return this.pieces;
    }
}
const IGNORED = (0,shared_text/* lazyRegExp */.eN)(() => /[\s+\p{Cf}\p{Default_Ignorable_Code_Point}]/u);
function compact(text) {
    const ignored = (0,shared_text/* isAscii */.ER)(text) ? /[\s+]/ : IGNORED();
    let kept = '';
    const from = [];
    for (let i = 0; i < text.length; i++) {
        const char = text.charAt(i);
        if (ignored.test(char))
            continue;
        kept += char;
        from.push(i);
    }
    return { kept, from };
}
const ENCODED_RUN = /[A-Za-z0-9+/_-]{11,}={0,2}/g;
function decodings(run) {
    const bytes = [Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64')];
    if (/^(?:[0-9a-f]{2})+$/i.test(run))
        bytes.push(Buffer.from(run, 'hex'));
    return bytes.flatMap((b) => [b.toString('latin1'), b.toString('utf8')]);
}
const NAMED = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function secrets_unescape(text) {
    return text
        .replace(/\\(?:u([0-9a-f]{4})|(["\\/]))/gi, (_, hex, char) => hex === undefined ? char : String.fromCharCode(parseInt(hex, 16)))
        .replace(/&#(\d{1,7});|&#x([0-9a-f]{1,6});|&(amp|lt|gt|quot|apos);/gi, (match, dec, hex, name) => {
        if (typeof name === 'string')
            return NAMED[name.toLowerCase()] ?? match;
        const code = dec !== undefined ? Number(dec) : parseInt(String(hex), 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : match;
    })
        .replace(/[^\s"'<>&=?]*%[0-9a-f]{2}[^\s"'<>&=?]*/gi, (word) => word.replace(/\+/g, ' ').replace(/(?:%[0-9a-f]{2})+/gi, (escapes) => {
        try {
            return decodeURIComponent(escapes);
        }
        catch {
            return escapes.replace(/%[0-7][0-9a-f]/gi, (one) => decodeURIComponent(one));
        }
    }));
}

;// CONCATENATED MODULE: ./src/runner/start.ts



function maskedSecrets(runner) {
    return new Secrets((value) => {
        runner.setSecret(value);
    });
}
function connect(runner, connection, secrets, clock, { transport, limit } = {}) {
    const total = connection.totalTimeoutMs;
    const deadline = limit !== undefined && (total === 0 || limit.ms < total)
        ? new Deadline(clock, limit.ms, limit.name)
        : new Deadline(clock, total);
    const stopListening = stopOnCancel(runner, deadline, clock);
    const client = new PlatformClient({
        ...connection,
        secrets,
        log: runner,
        deadline,
        clock,
        ...(transport === undefined ? {} : { transport }),
    });
    return {
        client,
        deadline,
        close: () => {
            stopListening();
            client.close();
        },
    };
}
const CANCEL_GRACE_MS = 5_000;
function stopOnCancel(runner, deadline, clock) {
    const finished = new AbortController();
    const stopListening = runner.onCancel((signal) => {
        if (signal === 'SIGINT' && !deadline.stopSignal.aborted) {
            runner.info(`Cancelled (SIGINT): no more requests start; those in flight have ${CANCEL_GRACE_MS / 1000} s to end, then what was done is reported.`);
            deadline.cancel(signal);
            void clock.sleep(CANCEL_GRACE_MS, finished.signal).then(() => {
                if (!finished.signal.aborted)
                    deadline.cut();
            });
            return;
        }
        if (!deadline.cutSignal.aborted) {
            runner.info(`Cancelled (${signal}): requests in flight are cut off; reporting what was done.`);
        }
        deadline.cancel(signal);
        deadline.cut();
    });
    return () => {
        finished.abort();
        stopListening();
    };
}

;// CONCATENATED MODULE: ./src/main.ts











async function run(runner = github_runner/* githubRunner */.O, clock = systemClock) {
    const secrets = maskedSecrets(runner);
    let operation;
    try {
        const inputs = readInputs((name) => runner.getInput(name), secrets, runner.inputNames());
        const { task, expectedProjectId } = inputs;
        operation = task.operation;
        for (const warning of inputs.warnings)
            runner.warning(warning);
        const { client, deadline, close } = connect(runner, inputs.connection, secrets, clock);
        try {
            const api = expectedProjectId ? new ProjectGuard(client, expectedProjectId) : client;
            const postState = new PostState(runner);
            const save = task.operation === 'create' && task.revokeOnExit !== 'never'
                ? postState.createSaver(task.revokeOnExit)
                : undefined;
            const outcome = await perform(api, task, {
                clock,
                log: runner,
                deadline,
                ...(save === undefined ? {} : { create: { save } }),
            });
            try {
                await report(outcome, { summary: inputs.summary, postState }, runner);
            }
            catch (error) {
                if (outcome.operation !== 'create')
                    throw error;
                throw await revokeUnhanded(api, outcome.result, error);
            }
            const problem = stepFailure(outcome);
            if (problem !== undefined)
                throw new errors/* ActionError */.lZ(problem);
        }
        finally {
            close();
        }
    }
    catch (error) {
        runner.setFailed(failureMessage(error, operation, secrets, runner));
    }
}
function failureMessage(error, operation, secrets, runner) {
    const prefix = operation ? `${operation} failed` : 'The action failed';
    try {
        if (error instanceof errors/* InputError */.dz)
            return secrets.scrub(error.message);
        if (error instanceof errors/* ActionError */.lZ)
            return secrets.scrub(`${prefix}: ${error.message}`);
        if (error instanceof Error && error.stack)
            runner.debug(secrets.scrub(error.stack));
        return secrets.scrub(`${prefix} unexpectedly: ${(0,errors/* messageOf */.bD)(error)}`);
    }
    catch {
        return `${prefix} unexpectedly, with an error that could not be shown.`;
    }
}


/***/ }),

/***/ 307:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  O: () => (/* binding */ githubRunner)
});

// EXTERNAL MODULE: ./src/shared/text.ts
var shared_text = __nccwpck_require__(646);
;// CONCATENATED MODULE: external "os"
const external_os_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("os");
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/utils.js
// We use any as a valid input type
/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Sanitizes an input into a string so it can be passed into issueCommand safely
 * @param input input to sanitize into a string
 */
function toCommandValue(input) {
    if (input === null || input === undefined) {
        return '';
    }
    else if (typeof input === 'string' || input instanceof String) {
        return input;
    }
    return JSON.stringify(input);
}
/**
 *
 * @param annotationProperties
 * @returns The command properties to send with the actual annotation command
 * See IssueCommandProperties: https://github.com/actions/runner/blob/main/src/Runner.Worker/ActionCommandManager.cs#L646
 */
function toCommandProperties(annotationProperties) {
    if (!Object.keys(annotationProperties).length) {
        return {};
    }
    return {
        title: annotationProperties.title,
        file: annotationProperties.file,
        line: annotationProperties.startLine,
        endLine: annotationProperties.endLine,
        col: annotationProperties.startColumn,
        endColumn: annotationProperties.endColumn
    };
}
//# sourceMappingURL=utils.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/command.js


/**
 * Issues a command to the GitHub Actions runner
 *
 * @param command - The command name to issue
 * @param properties - Additional properties for the command (key-value pairs)
 * @param message - The message to include with the command
 * @remarks
 * This function outputs a specially formatted string to stdout that the Actions
 * runner interprets as a command. These commands can control workflow behavior,
 * set outputs, create annotations, mask values, and more.
 *
 * Command Format:
 *   ::name key=value,key=value::message
 *
 * @example
 * ```typescript
 * // Issue a warning annotation
 * issueCommand('warning', {}, 'This is a warning message');
 * // Output: ::warning::This is a warning message
 *
 * // Set an environment variable
 * issueCommand('set-env', { name: 'MY_VAR' }, 'some value');
 * // Output: ::set-env name=MY_VAR::some value
 *
 * // Add a secret mask
 * issueCommand('add-mask', {}, 'secretValue123');
 * // Output: ::add-mask::secretValue123
 * ```
 *
 * @internal
 * This is an internal utility function that powers the public API functions
 * such as setSecret, warning, error, and exportVariable.
 */
function command_issueCommand(command, properties, message) {
    const cmd = new Command(command, properties, message);
    process.stdout.write(cmd.toString() + external_os_namespaceObject.EOL);
}
function command_issue(name, message = '') {
    command_issueCommand(name, {}, message);
}
const CMD_STRING = '::';
class Command {
    constructor(command, properties, message) {
        if (!command) {
            command = 'missing.command';
        }
        this.command = command;
        this.properties = properties;
        this.message = message;
    }
    toString() {
        let cmdStr = CMD_STRING + this.command;
        if (this.properties && Object.keys(this.properties).length > 0) {
            cmdStr += ' ';
            let first = true;
            for (const key in this.properties) {
                if (this.properties.hasOwnProperty(key)) {
                    const val = this.properties[key];
                    if (val) {
                        if (first) {
                            first = false;
                        }
                        else {
                            cmdStr += ',';
                        }
                        cmdStr += `${key}=${escapeProperty(val)}`;
                    }
                }
            }
        }
        cmdStr += `${CMD_STRING}${escapeData(this.message)}`;
        return cmdStr;
    }
}
function escapeData(s) {
    return toCommandValue(s)
        .replace(/%/g, '%25')
        .replace(/\r/g, '%0D')
        .replace(/\n/g, '%0A');
}
function escapeProperty(s) {
    return toCommandValue(s)
        .replace(/%/g, '%25')
        .replace(/\r/g, '%0D')
        .replace(/\n/g, '%0A')
        .replace(/:/g, '%3A')
        .replace(/,/g, '%2C');
}
//# sourceMappingURL=command.js.map
;// CONCATENATED MODULE: external "crypto"
const external_crypto_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("crypto");
;// CONCATENATED MODULE: external "fs"
const external_fs_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("fs");
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/file-command.js
// For internal use, subject to change.
// We use any as a valid input type
/* eslint-disable @typescript-eslint/no-explicit-any */




function file_command_issueFileCommand(command, message) {
    const filePath = process.env[`GITHUB_${command}`];
    if (!filePath) {
        throw new Error(`Unable to find environment variable for file command ${command}`);
    }
    if (!external_fs_namespaceObject.existsSync(filePath)) {
        throw new Error(`Missing file at path: ${filePath}`);
    }
    external_fs_namespaceObject.appendFileSync(filePath, `${toCommandValue(message)}${external_os_namespaceObject.EOL}`, {
        encoding: 'utf8'
    });
}
function prepareKeyValueMessage(key, value) {
    const delimiter = `ghadelimiter_${external_crypto_namespaceObject.randomUUID()}`;
    const convertedValue = toCommandValue(value);
    // These should realistically never happen, but just in case someone finds a
    // way to exploit uuid generation let's not allow keys or values that contain
    // the delimiter.
    if (key.includes(delimiter)) {
        throw new Error(`Unexpected input: name should not contain the delimiter "${delimiter}"`);
    }
    if (convertedValue.includes(delimiter)) {
        throw new Error(`Unexpected input: value should not contain the delimiter "${delimiter}"`);
    }
    return `${key}<<${delimiter}${external_os_namespaceObject.EOL}${convertedValue}${external_os_namespaceObject.EOL}${delimiter}`;
}
//# sourceMappingURL=file-command.js.map
;// CONCATENATED MODULE: external "path"
const external_path_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("path");
// EXTERNAL MODULE: ./node_modules/@actions/http-client/lib/index.js + 2 modules
var lib = __nccwpck_require__(511);
;// CONCATENATED MODULE: ./node_modules/@actions/http-client/lib/auth.js
var __awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};
class BasicCredentialHandler {
    constructor(username, password) {
        this.username = username;
        this.password = password;
    }
    prepareRequest(options) {
        if (!options.headers) {
            throw Error('The request has no headers');
        }
        options.headers['Authorization'] = `Basic ${Buffer.from(`${this.username}:${this.password}`).toString('base64')}`;
    }
    // This handler cannot handle 401
    canHandleAuthentication() {
        return false;
    }
    handleAuthentication() {
        return __awaiter(this, void 0, void 0, function* () {
            throw new Error('not implemented');
        });
    }
}
class auth_BearerCredentialHandler {
    constructor(token) {
        this.token = token;
    }
    // currently implements pre-authorization
    // TODO: support preAuth = false where it hooks on 401
    prepareRequest(options) {
        if (!options.headers) {
            throw Error('The request has no headers');
        }
        options.headers['Authorization'] = `Bearer ${this.token}`;
    }
    // This handler cannot handle 401
    canHandleAuthentication() {
        return false;
    }
    handleAuthentication() {
        return __awaiter(this, void 0, void 0, function* () {
            throw new Error('not implemented');
        });
    }
}
class PersonalAccessTokenCredentialHandler {
    constructor(token) {
        this.token = token;
    }
    // currently implements pre-authorization
    // TODO: support preAuth = false where it hooks on 401
    prepareRequest(options) {
        if (!options.headers) {
            throw Error('The request has no headers');
        }
        options.headers['Authorization'] = `Basic ${Buffer.from(`PAT:${this.token}`).toString('base64')}`;
    }
    // This handler cannot handle 401
    canHandleAuthentication() {
        return false;
    }
    handleAuthentication() {
        return __awaiter(this, void 0, void 0, function* () {
            throw new Error('not implemented');
        });
    }
}
//# sourceMappingURL=auth.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/oidc-utils.js
var oidc_utils_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};



class oidc_utils_OidcClient {
    static createHttpClient(allowRetry = true, maxRetry = 10) {
        const requestOptions = {
            allowRetries: allowRetry,
            maxRetries: maxRetry
        };
        return new HttpClient('actions/oidc-client', [new BearerCredentialHandler(oidc_utils_OidcClient.getRequestToken())], requestOptions);
    }
    static getRequestToken() {
        const token = process.env['ACTIONS_ID_TOKEN_REQUEST_TOKEN'];
        if (!token) {
            throw new Error('Unable to get ACTIONS_ID_TOKEN_REQUEST_TOKEN env variable');
        }
        return token;
    }
    static getIDTokenUrl() {
        const runtimeUrl = process.env['ACTIONS_ID_TOKEN_REQUEST_URL'];
        if (!runtimeUrl) {
            throw new Error('Unable to get ACTIONS_ID_TOKEN_REQUEST_URL env variable');
        }
        return runtimeUrl;
    }
    static getCall(id_token_url) {
        return oidc_utils_awaiter(this, void 0, void 0, function* () {
            var _a;
            const httpclient = oidc_utils_OidcClient.createHttpClient();
            const res = yield httpclient
                .getJson(id_token_url)
                .catch(error => {
                throw new Error(`Failed to get ID Token. \n 
        Error Code : ${error.statusCode}\n 
        Error Message: ${error.message}`);
            });
            const id_token = (_a = res.result) === null || _a === void 0 ? void 0 : _a.value;
            if (!id_token) {
                throw new Error('Response json body do not have ID Token field');
            }
            return id_token;
        });
    }
    static getIDToken(audience) {
        return oidc_utils_awaiter(this, void 0, void 0, function* () {
            try {
                // New ID Token is requested from action service
                let id_token_url = oidc_utils_OidcClient.getIDTokenUrl();
                if (audience) {
                    const encodedAudience = encodeURIComponent(audience);
                    id_token_url = `${id_token_url}&audience=${encodedAudience}`;
                }
                debug(`ID token url is ${id_token_url}`);
                const id_token = yield oidc_utils_OidcClient.getCall(id_token_url);
                setSecret(id_token);
                return id_token;
            }
            catch (error) {
                throw new Error(`Error message: ${error.message}`);
            }
        });
    }
}
//# sourceMappingURL=oidc-utils.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/summary.js
var summary_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};


const { access, appendFile, writeFile } = external_fs_namespaceObject.promises;
const SUMMARY_ENV_VAR = 'GITHUB_STEP_SUMMARY';
const SUMMARY_DOCS_URL = 'https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions#adding-a-job-summary';
class Summary {
    constructor() {
        this._buffer = '';
    }
    /**
     * Finds the summary file path from the environment, rejects if env var is not found or file does not exist
     * Also checks r/w permissions.
     *
     * @returns step summary file path
     */
    filePath() {
        return summary_awaiter(this, void 0, void 0, function* () {
            if (this._filePath) {
                return this._filePath;
            }
            const pathFromEnv = process.env[SUMMARY_ENV_VAR];
            if (!pathFromEnv) {
                throw new Error(`Unable to find environment variable for $${SUMMARY_ENV_VAR}. Check if your runtime environment supports job summaries.`);
            }
            try {
                yield access(pathFromEnv, external_fs_namespaceObject.constants.R_OK | external_fs_namespaceObject.constants.W_OK);
            }
            catch (_a) {
                throw new Error(`Unable to access summary file: '${pathFromEnv}'. Check if the file has correct read/write permissions.`);
            }
            this._filePath = pathFromEnv;
            return this._filePath;
        });
    }
    /**
     * Wraps content in an HTML tag, adding any HTML attributes
     *
     * @param {string} tag HTML tag to wrap
     * @param {string | null} content content within the tag
     * @param {[attribute: string]: string} attrs key-value list of HTML attributes to add
     *
     * @returns {string} content wrapped in HTML element
     */
    wrap(tag, content, attrs = {}) {
        const htmlAttrs = Object.entries(attrs)
            .map(([key, value]) => ` ${key}="${value}"`)
            .join('');
        if (!content) {
            return `<${tag}${htmlAttrs}>`;
        }
        return `<${tag}${htmlAttrs}>${content}</${tag}>`;
    }
    /**
     * Writes text in the buffer to the summary buffer file and empties buffer. Will append by default.
     *
     * @param {SummaryWriteOptions} [options] (optional) options for write operation
     *
     * @returns {Promise<Summary>} summary instance
     */
    write(options) {
        return summary_awaiter(this, void 0, void 0, function* () {
            const overwrite = !!(options === null || options === void 0 ? void 0 : options.overwrite);
            const filePath = yield this.filePath();
            const writeFunc = overwrite ? writeFile : appendFile;
            yield writeFunc(filePath, this._buffer, { encoding: 'utf8' });
            return this.emptyBuffer();
        });
    }
    /**
     * Clears the summary buffer and wipes the summary file
     *
     * @returns {Summary} summary instance
     */
    clear() {
        return summary_awaiter(this, void 0, void 0, function* () {
            return this.emptyBuffer().write({ overwrite: true });
        });
    }
    /**
     * Returns the current summary buffer as a string
     *
     * @returns {string} string of summary buffer
     */
    stringify() {
        return this._buffer;
    }
    /**
     * If the summary buffer is empty
     *
     * @returns {boolen} true if the buffer is empty
     */
    isEmptyBuffer() {
        return this._buffer.length === 0;
    }
    /**
     * Resets the summary buffer without writing to summary file
     *
     * @returns {Summary} summary instance
     */
    emptyBuffer() {
        this._buffer = '';
        return this;
    }
    /**
     * Adds raw text to the summary buffer
     *
     * @param {string} text content to add
     * @param {boolean} [addEOL=false] (optional) append an EOL to the raw text (default: false)
     *
     * @returns {Summary} summary instance
     */
    addRaw(text, addEOL = false) {
        this._buffer += text;
        return addEOL ? this.addEOL() : this;
    }
    /**
     * Adds the operating system-specific end-of-line marker to the buffer
     *
     * @returns {Summary} summary instance
     */
    addEOL() {
        return this.addRaw(external_os_namespaceObject.EOL);
    }
    /**
     * Adds an HTML codeblock to the summary buffer
     *
     * @param {string} code content to render within fenced code block
     * @param {string} lang (optional) language to syntax highlight code
     *
     * @returns {Summary} summary instance
     */
    addCodeBlock(code, lang) {
        const attrs = Object.assign({}, (lang && { lang }));
        const element = this.wrap('pre', this.wrap('code', code), attrs);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML list to the summary buffer
     *
     * @param {string[]} items list of items to render
     * @param {boolean} [ordered=false] (optional) if the rendered list should be ordered or not (default: false)
     *
     * @returns {Summary} summary instance
     */
    addList(items, ordered = false) {
        const tag = ordered ? 'ol' : 'ul';
        const listItems = items.map(item => this.wrap('li', item)).join('');
        const element = this.wrap(tag, listItems);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML table to the summary buffer
     *
     * @param {SummaryTableCell[]} rows table rows
     *
     * @returns {Summary} summary instance
     */
    addTable(rows) {
        const tableBody = rows
            .map(row => {
            const cells = row
                .map(cell => {
                if (typeof cell === 'string') {
                    return this.wrap('td', cell);
                }
                const { header, data, colspan, rowspan } = cell;
                const tag = header ? 'th' : 'td';
                const attrs = Object.assign(Object.assign({}, (colspan && { colspan })), (rowspan && { rowspan }));
                return this.wrap(tag, data, attrs);
            })
                .join('');
            return this.wrap('tr', cells);
        })
            .join('');
        const element = this.wrap('table', tableBody);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds a collapsable HTML details element to the summary buffer
     *
     * @param {string} label text for the closed state
     * @param {string} content collapsable content
     *
     * @returns {Summary} summary instance
     */
    addDetails(label, content) {
        const element = this.wrap('details', this.wrap('summary', label) + content);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML image tag to the summary buffer
     *
     * @param {string} src path to the image you to embed
     * @param {string} alt text description of the image
     * @param {SummaryImageOptions} options (optional) addition image attributes
     *
     * @returns {Summary} summary instance
     */
    addImage(src, alt, options) {
        const { width, height } = options || {};
        const attrs = Object.assign(Object.assign({}, (width && { width })), (height && { height }));
        const element = this.wrap('img', null, Object.assign({ src, alt }, attrs));
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML section heading element
     *
     * @param {string} text heading text
     * @param {number | string} [level=1] (optional) the heading level, default: 1
     *
     * @returns {Summary} summary instance
     */
    addHeading(text, level) {
        const tag = `h${level}`;
        const allowedTag = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].includes(tag)
            ? tag
            : 'h1';
        const element = this.wrap(allowedTag, text);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML thematic break (<hr>) to the summary buffer
     *
     * @returns {Summary} summary instance
     */
    addSeparator() {
        const element = this.wrap('hr', null);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML line break (<br>) to the summary buffer
     *
     * @returns {Summary} summary instance
     */
    addBreak() {
        const element = this.wrap('br', null);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML blockquote to the summary buffer
     *
     * @param {string} text quote text
     * @param {string} cite (optional) citation url
     *
     * @returns {Summary} summary instance
     */
    addQuote(text, cite) {
        const attrs = Object.assign({}, (cite && { cite }));
        const element = this.wrap('blockquote', text, attrs);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML anchor tag to the summary buffer
     *
     * @param {string} text link text/content
     * @param {string} href hyperlink
     *
     * @returns {Summary} summary instance
     */
    addLink(text, href) {
        const element = this.wrap('a', text, { href });
        return this.addRaw(element).addEOL();
    }
}
const _summary = new Summary();
/**
 * @deprecated use `core.summary`
 */
const markdownSummary = (/* unused pure expression or super */ null && (_summary));
const summary = _summary;
//# sourceMappingURL=summary.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/path-utils.js

/**
 * toPosixPath converts the given path to the posix form. On Windows, \\ will be
 * replaced with /.
 *
 * @param pth. Path to transform.
 * @return string Posix path.
 */
function toPosixPath(pth) {
    return pth.replace(/[\\]/g, '/');
}
/**
 * toWin32Path converts the given path to the win32 form. On Linux, / will be
 * replaced with \\.
 *
 * @param pth. Path to transform.
 * @return string Win32 path.
 */
function toWin32Path(pth) {
    return pth.replace(/[/]/g, '\\');
}
/**
 * toPlatformPath converts the given path to a platform-specific path. It does
 * this by replacing instances of / and \ with the platform-specific path
 * separator.
 *
 * @param pth The path to platformize.
 * @return string The platform-specific path.
 */
function toPlatformPath(pth) {
    return pth.replace(/[/\\]/g, path.sep);
}
//# sourceMappingURL=path-utils.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/platform.js
var platform_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};


const getWindowsInfo = () => platform_awaiter(void 0, void 0, void 0, function* () {
    const { stdout: version } = yield exec.getExecOutput('powershell -command "(Get-CimInstance -ClassName Win32_OperatingSystem).Version"', undefined, {
        silent: true
    });
    const { stdout: name } = yield exec.getExecOutput('powershell -command "(Get-CimInstance -ClassName Win32_OperatingSystem).Caption"', undefined, {
        silent: true
    });
    return {
        name: name.trim(),
        version: version.trim()
    };
});
const getMacOsInfo = () => platform_awaiter(void 0, void 0, void 0, function* () {
    var _a, _b, _c, _d;
    const { stdout } = yield exec.getExecOutput('sw_vers', undefined, {
        silent: true
    });
    const version = (_b = (_a = stdout.match(/ProductVersion:\s*(.+)/)) === null || _a === void 0 ? void 0 : _a[1]) !== null && _b !== void 0 ? _b : '';
    const name = (_d = (_c = stdout.match(/ProductName:\s*(.+)/)) === null || _c === void 0 ? void 0 : _c[1]) !== null && _d !== void 0 ? _d : '';
    return {
        name,
        version
    };
});
const getLinuxInfo = () => platform_awaiter(void 0, void 0, void 0, function* () {
    const { stdout } = yield exec.getExecOutput('lsb_release', ['-i', '-r', '-s'], {
        silent: true
    });
    const [name, version] = stdout.trim().split('\n');
    return {
        name,
        version
    };
});
const platform = external_os_namespaceObject.platform();
const arch = external_os_namespaceObject.arch();
const isWindows = platform === 'win32';
const isMacOS = platform === 'darwin';
const isLinux = platform === 'linux';
function getDetails() {
    return platform_awaiter(this, void 0, void 0, function* () {
        return Object.assign(Object.assign({}, (yield (isWindows
            ? getWindowsInfo()
            : isMacOS
                ? getMacOsInfo()
                : getLinuxInfo()))), { platform,
            arch,
            isWindows,
            isMacOS,
            isLinux });
    });
}
//# sourceMappingURL=platform.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/core.js
var core_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};






/**
 * The code to exit an action
 */
var ExitCode;
(function (ExitCode) {
    /**
     * A code indicating that the action was successful
     */
    ExitCode[ExitCode["Success"] = 0] = "Success";
    /**
     * A code indicating that the action was a failure
     */
    ExitCode[ExitCode["Failure"] = 1] = "Failure";
})(ExitCode || (ExitCode = {}));
//-----------------------------------------------------------------------
// Variables
//-----------------------------------------------------------------------
/**
 * Sets env variable for this action and future actions in the job
 * @param name the name of the variable to set
 * @param val the value of the variable. Non-string values will be converted to a string via JSON.stringify
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function exportVariable(name, val) {
    const convertedVal = toCommandValue(val);
    process.env[name] = convertedVal;
    const filePath = process.env['GITHUB_ENV'] || '';
    if (filePath) {
        return file_command_issueFileCommand('ENV', prepareKeyValueMessage(name, val));
    }
    command_issueCommand('set-env', { name }, convertedVal);
}
/**
 * Registers a secret which will get masked from logs
 *
 * @param secret - Value of the secret to be masked
 * @remarks
 * This function instructs the Actions runner to mask the specified value in any
 * logs produced during the workflow run. Once registered, the secret value will
 * be replaced with asterisks (***) whenever it appears in console output, logs,
 * or error messages.
 *
 * This is useful for protecting sensitive information such as:
 * - API keys
 * - Access tokens
 * - Authentication credentials
 * - URL parameters containing signatures (SAS tokens)
 *
 * Note that masking only affects future logs; any previous appearances of the
 * secret in logs before calling this function will remain unmasked.
 *
 * @example
 * ```typescript
 * // Register an API token as a secret
 * const apiToken = "abc123xyz456";
 * setSecret(apiToken);
 *
 * // Now any logs containing this value will show *** instead
 * console.log(`Using token: ${apiToken}`); // Outputs: "Using token: ***"
 * ```
 */
function core_setSecret(secret) {
    command_issueCommand('add-mask', {}, secret);
}
/**
 * Prepends inputPath to the PATH (for this action and future actions)
 * @param inputPath
 */
function addPath(inputPath) {
    const filePath = process.env['GITHUB_PATH'] || '';
    if (filePath) {
        issueFileCommand('PATH', inputPath);
    }
    else {
        issueCommand('add-path', {}, inputPath);
    }
    process.env['PATH'] = `${inputPath}${path.delimiter}${process.env['PATH']}`;
}
/**
 * Gets the value of an input.
 * Unless trimWhitespace is set to false in InputOptions, the value is also trimmed.
 * Returns an empty string if the value is not defined.
 *
 * @param     name     name of the input to get
 * @param     options  optional. See InputOptions.
 * @returns   string
 */
function getInput(name, options) {
    const val = process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] || '';
    if (options && options.required && !val) {
        throw new Error(`Input required and not supplied: ${name}`);
    }
    if (options && options.trimWhitespace === false) {
        return val;
    }
    return val.trim();
}
/**
 * Gets the values of an multiline input.  Each value is also trimmed.
 *
 * @param     name     name of the input to get
 * @param     options  optional. See InputOptions.
 * @returns   string[]
 *
 */
function getMultilineInput(name, options) {
    const inputs = getInput(name, options)
        .split('\n')
        .filter(x => x !== '');
    if (options && options.trimWhitespace === false) {
        return inputs;
    }
    return inputs.map(input => input.trim());
}
/**
 * Gets the input value of the boolean type in the YAML 1.2 "core schema" specification.
 * Support boolean input list: `true | True | TRUE | false | False | FALSE` .
 * The return value is also in boolean type.
 * ref: https://yaml.org/spec/1.2/spec.html#id2804923
 *
 * @param     name     name of the input to get
 * @param     options  optional. See InputOptions.
 * @returns   boolean
 */
function getBooleanInput(name, options) {
    const trueValue = ['true', 'True', 'TRUE'];
    const falseValue = ['false', 'False', 'FALSE'];
    const val = getInput(name, options);
    if (trueValue.includes(val))
        return true;
    if (falseValue.includes(val))
        return false;
    throw new TypeError(`Input does not meet YAML 1.2 "Core Schema" specification: ${name}\n` +
        `Support boolean input list: \`true | True | TRUE | false | False | FALSE\``);
}
/**
 * Sets the value of an output.
 *
 * @param     name     name of the output to set
 * @param     value    value to store. Non-string values will be converted to a string via JSON.stringify
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function setOutput(name, value) {
    const filePath = process.env['GITHUB_OUTPUT'] || '';
    if (filePath) {
        return file_command_issueFileCommand('OUTPUT', prepareKeyValueMessage(name, value));
    }
    process.stdout.write(external_os_namespaceObject.EOL);
    command_issueCommand('set-output', { name }, toCommandValue(value));
}
/**
 * Enables or disables the echoing of commands into stdout for the rest of the step.
 * Echoing is disabled by default if ACTIONS_STEP_DEBUG is not set.
 *
 */
function setCommandEcho(enabled) {
    issue('echo', enabled ? 'on' : 'off');
}
//-----------------------------------------------------------------------
// Results
//-----------------------------------------------------------------------
/**
 * Sets the action status to failed.
 * When the action exits it will be with an exit code of 1
 * @param message add error issue message
 */
function setFailed(message) {
    process.exitCode = ExitCode.Failure;
    error(message);
}
//-----------------------------------------------------------------------
// Logging Commands
//-----------------------------------------------------------------------
/**
 * Gets whether Actions Step Debug is on or not
 */
function isDebug() {
    return process.env['RUNNER_DEBUG'] === '1';
}
/**
 * Writes debug message to user log
 * @param message debug message
 */
function core_debug(message) {
    command_issueCommand('debug', {}, message);
}
/**
 * Adds an error issue
 * @param message error issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function error(message, properties = {}) {
    command_issueCommand('error', toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Adds a warning issue
 * @param message warning issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function warning(message, properties = {}) {
    command_issueCommand('warning', toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Adds a notice issue
 * @param message notice issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function notice(message, properties = {}) {
    command_issueCommand('notice', toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Writes info to log with console.log.
 * @param message info message
 */
function info(message) {
    process.stdout.write(message + external_os_namespaceObject.EOL);
}
/**
 * Begin an output group.
 *
 * Output until the next `groupEnd` will be foldable in this group
 *
 * @param name The name of the output group
 */
function startGroup(name) {
    issue('group', name);
}
/**
 * End an output group.
 */
function endGroup() {
    issue('endgroup');
}
/**
 * Wrap an asynchronous function call in a group.
 *
 * Returns the same type as the function itself.
 *
 * @param name The name of the group
 * @param fn The function to wrap in the group
 */
function group(name, fn) {
    return core_awaiter(this, void 0, void 0, function* () {
        startGroup(name);
        let result;
        try {
            result = yield fn();
        }
        finally {
            endGroup();
        }
        return result;
    });
}
//-----------------------------------------------------------------------
// Wrapper action state
//-----------------------------------------------------------------------
/**
 * Saves state for current action, the state can only be retrieved by this action's post job execution.
 *
 * @param     name     name of the state to store
 * @param     value    value to store. Non-string values will be converted to a string via JSON.stringify
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function saveState(name, value) {
    const filePath = process.env['GITHUB_STATE'] || '';
    if (filePath) {
        return file_command_issueFileCommand('STATE', prepareKeyValueMessage(name, value));
    }
    command_issueCommand('save-state', { name }, toCommandValue(value));
}
/**
 * Gets the value of an state set by this action's main execution.
 *
 * @param     name     name of the state to get
 * @returns   string
 */
function getState(name) {
    return process.env[`STATE_${name}`] || '';
}
function getIDToken(aud) {
    return core_awaiter(this, void 0, void 0, function* () {
        return yield OidcClient.getIDToken(aud);
    });
}
/**
 * Summary exports
 */

/**
 * @deprecated use core.summary
 */

/**
 * Path exports
 */

/**
 * Platform utilities exports
 */

//# sourceMappingURL=core.js.map
;// CONCATENATED MODULE: external "node:os"
const external_node_os_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");
// EXTERNAL MODULE: ./src/shared/errors.ts
var errors = __nccwpck_require__(382);
;// CONCATENATED MODULE: ./src/runner/github-runner.ts




function toFile(file, write) {
    try {
        write();
    }
    catch (error) {
        throw new errors/* RunnerFileError */.TX(file, error);
    }
}
const githubRunner = {
    getInput: (name) => getInput(name),
    inputNames: () => Object.keys(process.env)
        .filter((variable) => variable.toUpperCase().startsWith('INPUT_'))
        .map((variable) => variable.slice('INPUT_'.length)),
    setSecret: (value) => {
        core_setSecret(value);
    },
    setFailed: (message) => {
        setFailed((0,shared_text/* neutralizeLegacyCommands */.N9)(message));
    },
    debug: (message) => {
        core_debug((0,shared_text/* neutralizeLegacyCommands */.N9)(message));
    },
    info: (message) => {
        info((0,shared_text/* neutralizeCommands */.Kw)((0,shared_text/* oneLine */.TN)(message)));
    },
    notice: (message) => {
        notice((0,shared_text/* neutralizeLegacyCommands */.N9)(message));
    },
    warning: (message) => {
        warning((0,shared_text/* neutralizeLegacyCommands */.N9)(message));
    },
    setOutput: (name, value) => {
        toFile('GITHUB_OUTPUT', () => {
            setOutput(name, value);
        });
    },
    exportVariable: (name, value) => {
        toFile('GITHUB_ENV', () => {
            exportVariable(name, value);
        });
    },
    saveState: (name, value) => {
        toFile('GITHUB_STATE', () => {
            saveState(name, value);
        });
    },
    getState: (name) => getState(name),
    writeSummary: async (markdown) => {
        if (!process.env.GITHUB_STEP_SUMMARY) {
            core_debug('GITHUB_STEP_SUMMARY is not set; no job summary written.');
            return;
        }
        await summary.addRaw(markdown, true).write();
    },
    tempDir: () => process.env.RUNNER_TEMP || (0,external_node_os_namespaceObject.tmpdir)(),
    onCancel: (listener) => {
        const signals = ['SIGINT', 'SIGTERM'];
        const handlers = signals.map((signal) => {
            const handler = () => {
                listener(signal);
            };
            process.on(signal, handler);
            return [signal, handler];
        });
        return () => {
            for (const [signal, handler] of handlers)
                process.off(signal, handler);
        };
    },
};


/***/ }),

/***/ 382:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   DS: () => (/* binding */ FORK_HINT),
/* harmony export */   GI: () => (/* binding */ RequestError),
/* harmony export */   TX: () => (/* binding */ RunnerFileError),
/* harmony export */   V0: () => (/* binding */ UnsettledRevokeError),
/* harmony export */   Xe: () => (/* binding */ ThrottledError),
/* harmony export */   YP: () => (/* binding */ UnknownTokenError),
/* harmony export */   bD: () => (/* binding */ messageOf),
/* harmony export */   dz: () => (/* binding */ InputError),
/* harmony export */   j3: () => (/* binding */ DeadlineError),
/* harmony export */   lZ: () => (/* binding */ ActionError),
/* harmony export */   v3: () => (/* binding */ AuthenticationError),
/* harmony export */   vu: () => (/* binding */ isRefusal)
/* harmony export */ });
/* harmony import */ var _text_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(646);

class ActionError extends Error {
    name = 'ActionError';
}
class InputError extends ActionError {
    input;
    name = 'InputError';
    constructor(input, problem) {
        super(`Input '${input}' ${problem}`);
        this.input = input;
    }
}
class RunnerFileError extends ActionError {
    name = 'RunnerFileError';
    constructor(file, cause) {
        super(`could not write ${file}: ${(0,_text_js__WEBPACK_IMPORTED_MODULE_0__/* .asSentence */ .KG)(messageOf(cause))}`);
    }
}
const FORK_HINT = 'Secrets are not passed to workflows triggered from forks.';
function messageOf(error) {
    const { message } = (error ?? {});
    return typeof message === 'string' ? message : String(error);
}
class RequestError extends ActionError {
    status;
    transient;
    name = 'RequestError';
    constructor(message, status, transient = false) {
        super(message);
        this.status = status;
        this.transient = transient;
    }
}
class AuthenticationError extends RequestError {
    name = 'AuthenticationError';
}
class DeadlineError extends RequestError {
    mayHaveTakenEffect;
    name = 'DeadlineError';
    constructor(message, status, mayHaveTakenEffect = false) {
        super(message, status);
        this.mayHaveTakenEffect = mayHaveTakenEffect;
    }
}
class UnsettledRevokeError extends RequestError {
    refusal;
    mayHaveRevoked;
    name = 'UnsettledRevokeError';
    constructor(refusal, mayHaveRevoked) {
        super(refusal.message, refusal.status);
        this.refusal = refusal;
        this.mayHaveRevoked = mayHaveRevoked;
    }
}
class ThrottledError extends RequestError {
    throttle;
    name = 'ThrottledError';
    constructor(message, throttle) {
        super(message, 429);
        this.throttle = throttle;
    }
}
class UnknownTokenError extends RequestError {
    name = 'UnknownTokenError';
}
function isRefusal(status) {
    return status !== undefined && status >= 400 && status <= 499 && status !== 408 && status !== 429;
}


/***/ }),

/***/ 646:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   ER: () => (/* binding */ isAscii),
/* harmony export */   KG: () => (/* binding */ asSentence),
/* harmony export */   Kw: () => (/* binding */ neutralizeCommands),
/* harmony export */   N9: () => (/* binding */ neutralizeLegacyCommands),
/* harmony export */   TN: () => (/* binding */ oneLine),
/* harmony export */   eN: () => (/* binding */ lazyRegExp),
/* harmony export */   gW: () => (/* binding */ CONTROL_CHARACTER),
/* harmony export */   ih: () => (/* binding */ countTokens),
/* harmony export */   nV: () => (/* binding */ formatAge),
/* harmony export */   xv: () => (/* binding */ truncate)
/* harmony export */ });
/* unused harmony export showInvisible */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_OR_SPACE = new RegExp(`(?:${CONTROL_CHARACTER.source}|\\s)+`, 'g');
function oneLine(value) {
    return showInvisible(value).replace(CONTROL_OR_SPACE, ' ').trim();
}
const invisible = lazyRegExp(() => /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu);
function isAscii(text) {
    return /^[\x00-\x7f]*$/.test(text);
}
function showInvisible(value) {
    if (isAscii(value))
        return value;
    return value.replace(invisible(), (char) => {
        const code = char.codePointAt(0) ?? 0;
        return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
    });
}
function truncate(value, max) {
    if (value.length <= max)
        return value;
    let end = Math.max(0, max - 3);
    if (isHighSurrogate(value.charCodeAt(end - 1)))
        end--;
    return `${value.slice(0, end)}...`;
}
function isHighSurrogate(code) {
    return code >= 0xd800 && code <= 0xdbff;
}
function asSentence(text) {
    return /[.!?]$/.test(text) ? text : `${text}.`;
}
function countTokens(count) {
    return `${count} token${count === 1 ? '' : 's'}`;
}
function formatAge(ms) {
    const minutes = Math.max(0, Math.floor(ms / 60_000));
    const days = Math.floor(minutes / 1440);
    const hours = Math.floor((minutes % 1440) / 60);
    if (days > 0)
        return hours > 0 ? `${days}d ${hours}h` : `${days}d`;
    if (hours > 0)
        return `${hours}h ${minutes % 60}m`;
    return `${minutes}m`;
}
const WEIGHTLESS = '\\p{Cc}\\p{Cf}\\p{M}\\p{Default_Ignorable_Code_Point}\\u0640\\u07fa\\u180a\\u1cd3\\ufe73';
const legacyPrefix = lazyRegExp(() => new RegExp(`#[${WEIGHTLESS}]*#[${WEIGHTLESS}]*(?=\\[)`, 'gu'));
const commandStart = lazyRegExp(() => new RegExp(`^[\\s\\p{Z}${WEIGHTLESS}]*:(?=[${WEIGHTLESS}]*:)`, 'u'));
const PLAIN_START = /^[ \t]*[!-9;-~]/;
const LINE_BREAK = /(\r\n|\r|\n)/;
function neutralizeLegacyCommands(text) {
    return text.includes('#') ? text.replace(legacyPrefix(), '$& ') : text;
}
function neutralizeCommands(text) {
    return neutralizeLegacyCommands(text)
        .split(LINE_BREAK)
        .map((line) => (PLAIN_START.test(line) ? line : line.replace(commandStart(), '$& ')))
        .join('');
}
function lazyRegExp(build) {
    let built;
    return () => (built ??= build());
}


/***/ }),

/***/ 613:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("assert");

/***/ }),

/***/ 434:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("events");

/***/ }),

/***/ 611:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("http");

/***/ }),

/***/ 692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("https");

/***/ }),

/***/ 278:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("net");

/***/ }),

/***/ 756:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("tls");

/***/ }),

/***/ 23:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("util");

/***/ }),

/***/ 511:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  Qq: () => (/* binding */ HttpClient)
});

// UNUSED EXPORTS: Headers, HttpClientError, HttpClientResponse, HttpCodes, MediaTypes, getProxyUrl, isHttps

// EXTERNAL MODULE: external "http"
var external_http_ = __nccwpck_require__(611);
var external_http_namespaceObject = /*#__PURE__*/__nccwpck_require__.t(external_http_, 2);
// EXTERNAL MODULE: external "https"
var external_https_ = __nccwpck_require__(692);
var external_https_namespaceObject = /*#__PURE__*/__nccwpck_require__.t(external_https_, 2);
;// CONCATENATED MODULE: ./node_modules/@actions/http-client/lib/proxy.js
function getProxyUrl(reqUrl) {
    const usingSsl = reqUrl.protocol === 'https:';
    if (checkBypass(reqUrl)) {
        return undefined;
    }
    const proxyVar = (() => {
        if (usingSsl) {
            return process.env['https_proxy'] || process.env['HTTPS_PROXY'];
        }
        else {
            return process.env['http_proxy'] || process.env['HTTP_PROXY'];
        }
    })();
    if (proxyVar) {
        try {
            return new DecodedURL(proxyVar);
        }
        catch (_a) {
            if (!proxyVar.startsWith('http://') && !proxyVar.startsWith('https://'))
                return new DecodedURL(`http://${proxyVar}`);
        }
    }
    else {
        return undefined;
    }
}
function checkBypass(reqUrl) {
    if (!reqUrl.hostname) {
        return false;
    }
    const reqHost = reqUrl.hostname;
    if (isLoopbackAddress(reqHost)) {
        return true;
    }
    const noProxy = process.env['no_proxy'] || process.env['NO_PROXY'] || '';
    if (!noProxy) {
        return false;
    }
    // Determine the request port
    let reqPort;
    if (reqUrl.port) {
        reqPort = Number(reqUrl.port);
    }
    else if (reqUrl.protocol === 'http:') {
        reqPort = 80;
    }
    else if (reqUrl.protocol === 'https:') {
        reqPort = 443;
    }
    // Format the request hostname and hostname with port
    const upperReqHosts = [reqUrl.hostname.toUpperCase()];
    if (typeof reqPort === 'number') {
        upperReqHosts.push(`${upperReqHosts[0]}:${reqPort}`);
    }
    // Compare request host against noproxy
    for (const upperNoProxyItem of noProxy
        .split(',')
        .map(x => x.trim().toUpperCase())
        .filter(x => x)) {
        if (upperNoProxyItem === '*' ||
            upperReqHosts.some(x => x === upperNoProxyItem ||
                x.endsWith(`.${upperNoProxyItem}`) ||
                (upperNoProxyItem.startsWith('.') &&
                    x.endsWith(`${upperNoProxyItem}`)))) {
            return true;
        }
    }
    return false;
}
function isLoopbackAddress(host) {
    const hostLower = host.toLowerCase();
    return (hostLower === 'localhost' ||
        hostLower.startsWith('127.') ||
        hostLower.startsWith('[::1]') ||
        hostLower.startsWith('[0:0:0:0:0:0:0:1]'));
}
class DecodedURL extends URL {
    constructor(url, base) {
        super(url, base);
        this._decodedUsername = decodeURIComponent(super.username);
        this._decodedPassword = decodeURIComponent(super.password);
    }
    get username() {
        return this._decodedUsername;
    }
    get password() {
        return this._decodedPassword;
    }
}
//# sourceMappingURL=proxy.js.map
// EXTERNAL MODULE: ./node_modules/tunnel/index.js
var tunnel = __nccwpck_require__(770);
;// CONCATENATED MODULE: ./src/bundle/undici.ts
class ProxyAgent {
    constructor() {
        throw new Error('undici is not bundled with this action (see src/bundle/undici.ts).');
    }
}

;// CONCATENATED MODULE: ./node_modules/@actions/http-client/lib/index.js
/* eslint-disable @typescript-eslint/no-explicit-any */
var __awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};





var HttpCodes;
(function (HttpCodes) {
    HttpCodes[HttpCodes["OK"] = 200] = "OK";
    HttpCodes[HttpCodes["MultipleChoices"] = 300] = "MultipleChoices";
    HttpCodes[HttpCodes["MovedPermanently"] = 301] = "MovedPermanently";
    HttpCodes[HttpCodes["ResourceMoved"] = 302] = "ResourceMoved";
    HttpCodes[HttpCodes["SeeOther"] = 303] = "SeeOther";
    HttpCodes[HttpCodes["NotModified"] = 304] = "NotModified";
    HttpCodes[HttpCodes["UseProxy"] = 305] = "UseProxy";
    HttpCodes[HttpCodes["SwitchProxy"] = 306] = "SwitchProxy";
    HttpCodes[HttpCodes["TemporaryRedirect"] = 307] = "TemporaryRedirect";
    HttpCodes[HttpCodes["PermanentRedirect"] = 308] = "PermanentRedirect";
    HttpCodes[HttpCodes["BadRequest"] = 400] = "BadRequest";
    HttpCodes[HttpCodes["Unauthorized"] = 401] = "Unauthorized";
    HttpCodes[HttpCodes["PaymentRequired"] = 402] = "PaymentRequired";
    HttpCodes[HttpCodes["Forbidden"] = 403] = "Forbidden";
    HttpCodes[HttpCodes["NotFound"] = 404] = "NotFound";
    HttpCodes[HttpCodes["MethodNotAllowed"] = 405] = "MethodNotAllowed";
    HttpCodes[HttpCodes["NotAcceptable"] = 406] = "NotAcceptable";
    HttpCodes[HttpCodes["ProxyAuthenticationRequired"] = 407] = "ProxyAuthenticationRequired";
    HttpCodes[HttpCodes["RequestTimeout"] = 408] = "RequestTimeout";
    HttpCodes[HttpCodes["Conflict"] = 409] = "Conflict";
    HttpCodes[HttpCodes["Gone"] = 410] = "Gone";
    HttpCodes[HttpCodes["TooManyRequests"] = 429] = "TooManyRequests";
    HttpCodes[HttpCodes["InternalServerError"] = 500] = "InternalServerError";
    HttpCodes[HttpCodes["NotImplemented"] = 501] = "NotImplemented";
    HttpCodes[HttpCodes["BadGateway"] = 502] = "BadGateway";
    HttpCodes[HttpCodes["ServiceUnavailable"] = 503] = "ServiceUnavailable";
    HttpCodes[HttpCodes["GatewayTimeout"] = 504] = "GatewayTimeout";
})(HttpCodes || (HttpCodes = {}));
var Headers;
(function (Headers) {
    Headers["Accept"] = "accept";
    Headers["ContentType"] = "content-type";
})(Headers || (Headers = {}));
var MediaTypes;
(function (MediaTypes) {
    MediaTypes["ApplicationJson"] = "application/json";
})(MediaTypes || (MediaTypes = {}));
/**
 * Returns the proxy URL, depending upon the supplied url and proxy environment variables.
 * @param serverUrl  The server URL where the request will be sent. For example, https://api.github.com
 */
function lib_getProxyUrl(serverUrl) {
    const proxyUrl = pm.getProxyUrl(new URL(serverUrl));
    return proxyUrl ? proxyUrl.href : '';
}
const HttpRedirectCodes = [
    HttpCodes.MovedPermanently,
    HttpCodes.ResourceMoved,
    HttpCodes.SeeOther,
    HttpCodes.TemporaryRedirect,
    HttpCodes.PermanentRedirect
];
const HttpResponseRetryCodes = [
    HttpCodes.BadGateway,
    HttpCodes.ServiceUnavailable,
    HttpCodes.GatewayTimeout
];
const RetryableHttpVerbs = ['OPTIONS', 'GET', 'DELETE', 'HEAD'];
const ExponentialBackoffCeiling = 10;
const ExponentialBackoffTimeSlice = 5;
class HttpClientError extends Error {
    constructor(message, statusCode) {
        super(message);
        this.name = 'HttpClientError';
        this.statusCode = statusCode;
        Object.setPrototypeOf(this, HttpClientError.prototype);
    }
}
class HttpClientResponse {
    constructor(message) {
        this.message = message;
    }
    readBody() {
        return __awaiter(this, void 0, void 0, function* () {
            return new Promise((resolve) => __awaiter(this, void 0, void 0, function* () {
                let output = Buffer.alloc(0);
                this.message.on('data', (chunk) => {
                    output = Buffer.concat([output, chunk]);
                });
                this.message.on('end', () => {
                    resolve(output.toString());
                });
            }));
        });
    }
    readBodyBuffer() {
        return __awaiter(this, void 0, void 0, function* () {
            return new Promise((resolve) => __awaiter(this, void 0, void 0, function* () {
                const chunks = [];
                this.message.on('data', (chunk) => {
                    chunks.push(chunk);
                });
                this.message.on('end', () => {
                    resolve(Buffer.concat(chunks));
                });
            }));
        });
    }
}
function isHttps(requestUrl) {
    const parsedUrl = new URL(requestUrl);
    return parsedUrl.protocol === 'https:';
}
class HttpClient {
    constructor(userAgent, handlers, requestOptions) {
        this._ignoreSslError = false;
        this._allowRedirects = true;
        this._allowRedirectDowngrade = false;
        this._maxRedirects = 50;
        this._allowRetries = false;
        this._maxRetries = 1;
        this._keepAlive = false;
        this._disposed = false;
        this.userAgent = this._getUserAgentWithOrchestrationId(userAgent);
        this.handlers = handlers || [];
        this.requestOptions = requestOptions;
        if (requestOptions) {
            if (requestOptions.ignoreSslError != null) {
                this._ignoreSslError = requestOptions.ignoreSslError;
            }
            this._socketTimeout = requestOptions.socketTimeout;
            if (requestOptions.allowRedirects != null) {
                this._allowRedirects = requestOptions.allowRedirects;
            }
            if (requestOptions.allowRedirectDowngrade != null) {
                this._allowRedirectDowngrade = requestOptions.allowRedirectDowngrade;
            }
            if (requestOptions.maxRedirects != null) {
                this._maxRedirects = Math.max(requestOptions.maxRedirects, 0);
            }
            if (requestOptions.keepAlive != null) {
                this._keepAlive = requestOptions.keepAlive;
            }
            if (requestOptions.allowRetries != null) {
                this._allowRetries = requestOptions.allowRetries;
            }
            if (requestOptions.maxRetries != null) {
                this._maxRetries = requestOptions.maxRetries;
            }
        }
    }
    options(requestUrl, additionalHeaders) {
        return __awaiter(this, void 0, void 0, function* () {
            return this.request('OPTIONS', requestUrl, null, additionalHeaders || {});
        });
    }
    get(requestUrl, additionalHeaders) {
        return __awaiter(this, void 0, void 0, function* () {
            return this.request('GET', requestUrl, null, additionalHeaders || {});
        });
    }
    del(requestUrl, additionalHeaders) {
        return __awaiter(this, void 0, void 0, function* () {
            return this.request('DELETE', requestUrl, null, additionalHeaders || {});
        });
    }
    post(requestUrl, data, additionalHeaders) {
        return __awaiter(this, void 0, void 0, function* () {
            return this.request('POST', requestUrl, data, additionalHeaders || {});
        });
    }
    patch(requestUrl, data, additionalHeaders) {
        return __awaiter(this, void 0, void 0, function* () {
            return this.request('PATCH', requestUrl, data, additionalHeaders || {});
        });
    }
    put(requestUrl, data, additionalHeaders) {
        return __awaiter(this, void 0, void 0, function* () {
            return this.request('PUT', requestUrl, data, additionalHeaders || {});
        });
    }
    head(requestUrl, additionalHeaders) {
        return __awaiter(this, void 0, void 0, function* () {
            return this.request('HEAD', requestUrl, null, additionalHeaders || {});
        });
    }
    sendStream(verb, requestUrl, stream, additionalHeaders) {
        return __awaiter(this, void 0, void 0, function* () {
            return this.request(verb, requestUrl, stream, additionalHeaders);
        });
    }
    /**
     * Gets a typed object from an endpoint
     * Be aware that not found returns a null.  Other errors (4xx, 5xx) reject the promise
     */
    getJson(requestUrl_1) {
        return __awaiter(this, arguments, void 0, function* (requestUrl, additionalHeaders = {}) {
            additionalHeaders[Headers.Accept] = this._getExistingOrDefaultHeader(additionalHeaders, Headers.Accept, MediaTypes.ApplicationJson);
            const res = yield this.get(requestUrl, additionalHeaders);
            return this._processResponse(res, this.requestOptions);
        });
    }
    postJson(requestUrl_1, obj_1) {
        return __awaiter(this, arguments, void 0, function* (requestUrl, obj, additionalHeaders = {}) {
            const data = JSON.stringify(obj, null, 2);
            additionalHeaders[Headers.Accept] = this._getExistingOrDefaultHeader(additionalHeaders, Headers.Accept, MediaTypes.ApplicationJson);
            additionalHeaders[Headers.ContentType] =
                this._getExistingOrDefaultContentTypeHeader(additionalHeaders, MediaTypes.ApplicationJson);
            const res = yield this.post(requestUrl, data, additionalHeaders);
            return this._processResponse(res, this.requestOptions);
        });
    }
    putJson(requestUrl_1, obj_1) {
        return __awaiter(this, arguments, void 0, function* (requestUrl, obj, additionalHeaders = {}) {
            const data = JSON.stringify(obj, null, 2);
            additionalHeaders[Headers.Accept] = this._getExistingOrDefaultHeader(additionalHeaders, Headers.Accept, MediaTypes.ApplicationJson);
            additionalHeaders[Headers.ContentType] =
                this._getExistingOrDefaultContentTypeHeader(additionalHeaders, MediaTypes.ApplicationJson);
            const res = yield this.put(requestUrl, data, additionalHeaders);
            return this._processResponse(res, this.requestOptions);
        });
    }
    patchJson(requestUrl_1, obj_1) {
        return __awaiter(this, arguments, void 0, function* (requestUrl, obj, additionalHeaders = {}) {
            const data = JSON.stringify(obj, null, 2);
            additionalHeaders[Headers.Accept] = this._getExistingOrDefaultHeader(additionalHeaders, Headers.Accept, MediaTypes.ApplicationJson);
            additionalHeaders[Headers.ContentType] =
                this._getExistingOrDefaultContentTypeHeader(additionalHeaders, MediaTypes.ApplicationJson);
            const res = yield this.patch(requestUrl, data, additionalHeaders);
            return this._processResponse(res, this.requestOptions);
        });
    }
    /**
     * Makes a raw http request.
     * All other methods such as get, post, patch, and request ultimately call this.
     * Prefer get, del, post and patch
     */
    request(verb, requestUrl, data, headers) {
        return __awaiter(this, void 0, void 0, function* () {
            if (this._disposed) {
                throw new Error('Client has already been disposed.');
            }
            const parsedUrl = new URL(requestUrl);
            let info = this._prepareRequest(verb, parsedUrl, headers);
            // Only perform retries on reads since writes may not be idempotent.
            const maxTries = this._allowRetries && RetryableHttpVerbs.includes(verb)
                ? this._maxRetries + 1
                : 1;
            let numTries = 0;
            let response;
            do {
                response = yield this.requestRaw(info, data);
                // Check if it's an authentication challenge
                if (response &&
                    response.message &&
                    response.message.statusCode === HttpCodes.Unauthorized) {
                    let authenticationHandler;
                    for (const handler of this.handlers) {
                        if (handler.canHandleAuthentication(response)) {
                            authenticationHandler = handler;
                            break;
                        }
                    }
                    if (authenticationHandler) {
                        return authenticationHandler.handleAuthentication(this, info, data);
                    }
                    else {
                        // We have received an unauthorized response but have no handlers to handle it.
                        // Let the response return to the caller.
                        return response;
                    }
                }
                let redirectsRemaining = this._maxRedirects;
                while (response.message.statusCode &&
                    HttpRedirectCodes.includes(response.message.statusCode) &&
                    this._allowRedirects &&
                    redirectsRemaining > 0) {
                    const redirectUrl = response.message.headers['location'];
                    if (!redirectUrl) {
                        // if there's no location to redirect to, we won't
                        break;
                    }
                    const parsedRedirectUrl = new URL(redirectUrl);
                    if (parsedUrl.protocol === 'https:' &&
                        parsedUrl.protocol !== parsedRedirectUrl.protocol &&
                        !this._allowRedirectDowngrade) {
                        throw new Error('Redirect from HTTPS to HTTP protocol. This downgrade is not allowed for security reasons. If you want to allow this behavior, set the allowRedirectDowngrade option to true.');
                    }
                    // we need to finish reading the response before reassigning response
                    // which will leak the open socket.
                    yield response.readBody();
                    // strip authorization header if redirected to a different hostname
                    if (parsedRedirectUrl.hostname !== parsedUrl.hostname) {
                        for (const header in headers) {
                            // header names are case insensitive
                            if (header.toLowerCase() === 'authorization') {
                                delete headers[header];
                            }
                        }
                    }
                    // let's make the request with the new redirectUrl
                    info = this._prepareRequest(verb, parsedRedirectUrl, headers);
                    response = yield this.requestRaw(info, data);
                    redirectsRemaining--;
                }
                if (!response.message.statusCode ||
                    !HttpResponseRetryCodes.includes(response.message.statusCode)) {
                    // If not a retry code, return immediately instead of retrying
                    return response;
                }
                numTries += 1;
                if (numTries < maxTries) {
                    yield response.readBody();
                    yield this._performExponentialBackoff(numTries);
                }
            } while (numTries < maxTries);
            return response;
        });
    }
    /**
     * Needs to be called if keepAlive is set to true in request options.
     */
    dispose() {
        if (this._agent) {
            this._agent.destroy();
        }
        this._disposed = true;
    }
    /**
     * Raw request.
     * @param info
     * @param data
     */
    requestRaw(info, data) {
        return __awaiter(this, void 0, void 0, function* () {
            return new Promise((resolve, reject) => {
                function callbackForResult(err, res) {
                    if (err) {
                        reject(err);
                    }
                    else if (!res) {
                        // If `err` is not passed, then `res` must be passed.
                        reject(new Error('Unknown error'));
                    }
                    else {
                        resolve(res);
                    }
                }
                this.requestRawWithCallback(info, data, callbackForResult);
            });
        });
    }
    /**
     * Raw request with callback.
     * @param info
     * @param data
     * @param onResult
     */
    requestRawWithCallback(info, data, onResult) {
        if (typeof data === 'string') {
            if (!info.options.headers) {
                info.options.headers = {};
            }
            info.options.headers['Content-Length'] = Buffer.byteLength(data, 'utf8');
        }
        let callbackCalled = false;
        function handleResult(err, res) {
            if (!callbackCalled) {
                callbackCalled = true;
                onResult(err, res);
            }
        }
        const req = info.httpModule.request(info.options, (msg) => {
            const res = new HttpClientResponse(msg);
            handleResult(undefined, res);
        });
        let socket;
        req.on('socket', sock => {
            socket = sock;
        });
        // If we ever get disconnected, we want the socket to timeout eventually
        req.setTimeout(this._socketTimeout || 3 * 60000, () => {
            if (socket) {
                socket.end();
            }
            handleResult(new Error(`Request timeout: ${info.options.path}`));
        });
        req.on('error', function (err) {
            // err has statusCode property
            // res should have headers
            handleResult(err);
        });
        if (data && typeof data === 'string') {
            req.write(data, 'utf8');
        }
        if (data && typeof data !== 'string') {
            data.on('close', function () {
                req.end();
            });
            data.pipe(req);
        }
        else {
            req.end();
        }
    }
    /**
     * Gets an http agent. This function is useful when you need an http agent that handles
     * routing through a proxy server - depending upon the url and proxy environment variables.
     * @param serverUrl  The server URL where the request will be sent. For example, https://api.github.com
     */
    getAgent(serverUrl) {
        const parsedUrl = new URL(serverUrl);
        return this._getAgent(parsedUrl);
    }
    getAgentDispatcher(serverUrl) {
        const parsedUrl = new URL(serverUrl);
        const proxyUrl = getProxyUrl(parsedUrl);
        const useProxy = proxyUrl && proxyUrl.hostname;
        if (!useProxy) {
            return;
        }
        return this._getProxyAgentDispatcher(parsedUrl, proxyUrl);
    }
    _prepareRequest(method, requestUrl, headers) {
        const info = {};
        info.parsedUrl = requestUrl;
        const usingSsl = info.parsedUrl.protocol === 'https:';
        info.httpModule = usingSsl ? external_https_namespaceObject : external_http_namespaceObject;
        const defaultPort = usingSsl ? 443 : 80;
        info.options = {};
        info.options.host = info.parsedUrl.hostname;
        info.options.port = info.parsedUrl.port
            ? parseInt(info.parsedUrl.port)
            : defaultPort;
        info.options.path =
            (info.parsedUrl.pathname || '') + (info.parsedUrl.search || '');
        info.options.method = method;
        info.options.headers = this._mergeHeaders(headers);
        if (this.userAgent != null) {
            info.options.headers['user-agent'] = this.userAgent;
        }
        info.options.agent = this._getAgent(info.parsedUrl);
        // gives handlers an opportunity to participate
        if (this.handlers) {
            for (const handler of this.handlers) {
                handler.prepareRequest(info.options);
            }
        }
        return info;
    }
    _mergeHeaders(headers) {
        if (this.requestOptions && this.requestOptions.headers) {
            return Object.assign({}, lowercaseKeys(this.requestOptions.headers), lowercaseKeys(headers || {}));
        }
        return lowercaseKeys(headers || {});
    }
    /**
     * Gets an existing header value or returns a default.
     * Handles converting number header values to strings since HTTP headers must be strings.
     * Note: This returns string | string[] since some headers can have multiple values.
     * For headers that must always be a single string (like Content-Type), use the
     * specialized _getExistingOrDefaultContentTypeHeader method instead.
     */
    _getExistingOrDefaultHeader(additionalHeaders, header, _default) {
        let clientHeader;
        if (this.requestOptions && this.requestOptions.headers) {
            const headerValue = lowercaseKeys(this.requestOptions.headers)[header];
            if (headerValue) {
                clientHeader =
                    typeof headerValue === 'number' ? headerValue.toString() : headerValue;
            }
        }
        const additionalValue = additionalHeaders[header];
        if (additionalValue !== undefined) {
            return typeof additionalValue === 'number'
                ? additionalValue.toString()
                : additionalValue;
        }
        if (clientHeader !== undefined) {
            return clientHeader;
        }
        return _default;
    }
    /**
     * Specialized version of _getExistingOrDefaultHeader for Content-Type header.
     * Always returns a single string (not an array) since Content-Type should be a single value.
     * Converts arrays to comma-separated strings and numbers to strings to ensure type safety.
     * This was split from _getExistingOrDefaultHeader to provide stricter typing for callers
     * that assign the result to places expecting a string (e.g., additionalHeaders[Headers.ContentType]).
     */
    _getExistingOrDefaultContentTypeHeader(additionalHeaders, _default) {
        let clientHeader;
        if (this.requestOptions && this.requestOptions.headers) {
            const headerValue = lowercaseKeys(this.requestOptions.headers)[Headers.ContentType];
            if (headerValue) {
                if (typeof headerValue === 'number') {
                    clientHeader = String(headerValue);
                }
                else if (Array.isArray(headerValue)) {
                    clientHeader = headerValue.join(', ');
                }
                else {
                    clientHeader = headerValue;
                }
            }
        }
        const additionalValue = additionalHeaders[Headers.ContentType];
        // Return the first non-undefined value, converting numbers or arrays to strings if necessary
        if (additionalValue !== undefined) {
            if (typeof additionalValue === 'number') {
                return String(additionalValue);
            }
            else if (Array.isArray(additionalValue)) {
                return additionalValue.join(', ');
            }
            else {
                return additionalValue;
            }
        }
        if (clientHeader !== undefined) {
            return clientHeader;
        }
        return _default;
    }
    _getAgent(parsedUrl) {
        let agent;
        const proxyUrl = getProxyUrl(parsedUrl);
        const useProxy = proxyUrl && proxyUrl.hostname;
        if (this._keepAlive && useProxy) {
            agent = this._proxyAgent;
        }
        if (!useProxy) {
            agent = this._agent;
        }
        // if agent is already assigned use that agent.
        if (agent) {
            return agent;
        }
        const usingSsl = parsedUrl.protocol === 'https:';
        let maxSockets = 100;
        if (this.requestOptions) {
            maxSockets = this.requestOptions.maxSockets || external_http_.globalAgent.maxSockets;
        }
        // This is `useProxy` again, but we need to check `proxyURl` directly for TypeScripts's flow analysis.
        if (proxyUrl && proxyUrl.hostname) {
            const agentOptions = {
                maxSockets,
                keepAlive: this._keepAlive,
                proxy: Object.assign(Object.assign({}, ((proxyUrl.username || proxyUrl.password) && {
                    proxyAuth: `${proxyUrl.username}:${proxyUrl.password}`
                })), { host: proxyUrl.hostname, port: proxyUrl.port })
            };
            let tunnelAgent;
            const overHttps = proxyUrl.protocol === 'https:';
            if (usingSsl) {
                tunnelAgent = overHttps ? tunnel.httpsOverHttps : tunnel.httpsOverHttp;
            }
            else {
                tunnelAgent = overHttps ? tunnel.httpOverHttps : tunnel.httpOverHttp;
            }
            agent = tunnelAgent(agentOptions);
            this._proxyAgent = agent;
        }
        // if tunneling agent isn't assigned create a new agent
        if (!agent) {
            const options = { keepAlive: this._keepAlive, maxSockets };
            agent = usingSsl ? new external_https_.Agent(options) : new external_http_.Agent(options);
            this._agent = agent;
        }
        if (usingSsl && this._ignoreSslError) {
            // we don't want to set NODE_TLS_REJECT_UNAUTHORIZED=0 since that will affect request for entire process
            // http.RequestOptions doesn't expose a way to modify RequestOptions.agent.options
            // we have to cast it to any and change it directly
            agent.options = Object.assign(agent.options || {}, {
                rejectUnauthorized: false
            });
        }
        return agent;
    }
    _getProxyAgentDispatcher(parsedUrl, proxyUrl) {
        let proxyAgent;
        if (this._keepAlive) {
            proxyAgent = this._proxyAgentDispatcher;
        }
        // if agent is already assigned use that agent.
        if (proxyAgent) {
            return proxyAgent;
        }
        const usingSsl = parsedUrl.protocol === 'https:';
        proxyAgent = new ProxyAgent(Object.assign({ uri: proxyUrl.href, pipelining: !this._keepAlive ? 0 : 1 }, ((proxyUrl.username || proxyUrl.password) && {
            token: `Basic ${Buffer.from(`${proxyUrl.username}:${proxyUrl.password}`).toString('base64')}`
        })));
        this._proxyAgentDispatcher = proxyAgent;
        if (usingSsl && this._ignoreSslError) {
            // we don't want to set NODE_TLS_REJECT_UNAUTHORIZED=0 since that will affect request for entire process
            // http.RequestOptions doesn't expose a way to modify RequestOptions.agent.options
            // we have to cast it to any and change it directly
            proxyAgent.options = Object.assign(proxyAgent.options.requestTls || {}, {
                rejectUnauthorized: false
            });
        }
        return proxyAgent;
    }
    _getUserAgentWithOrchestrationId(userAgent) {
        const baseUserAgent = userAgent || 'actions/http-client';
        const orchId = process.env['ACTIONS_ORCHESTRATION_ID'];
        if (orchId) {
            // Sanitize the orchestration ID to ensure it contains only valid characters
            // Valid characters: 0-9, a-z, _, -, .
            const sanitizedId = orchId.replace(/[^a-z0-9_.-]/gi, '_');
            return `${baseUserAgent} actions_orchestration_id/${sanitizedId}`;
        }
        return baseUserAgent;
    }
    _performExponentialBackoff(retryNumber) {
        return __awaiter(this, void 0, void 0, function* () {
            retryNumber = Math.min(ExponentialBackoffCeiling, retryNumber);
            const ms = ExponentialBackoffTimeSlice * Math.pow(2, retryNumber);
            return new Promise(resolve => setTimeout(() => resolve(), ms));
        });
    }
    _processResponse(res, options) {
        return __awaiter(this, void 0, void 0, function* () {
            return new Promise((resolve, reject) => __awaiter(this, void 0, void 0, function* () {
                const statusCode = res.message.statusCode || 0;
                const response = {
                    statusCode,
                    result: null,
                    headers: {}
                };
                // not found leads to null obj returned
                if (statusCode === HttpCodes.NotFound) {
                    resolve(response);
                }
                // get the result from the body
                function dateTimeDeserializer(key, value) {
                    if (typeof value === 'string') {
                        const a = new Date(value);
                        if (!isNaN(a.valueOf())) {
                            return a;
                        }
                    }
                    return value;
                }
                let obj;
                let contents;
                try {
                    contents = yield res.readBody();
                    if (contents && contents.length > 0) {
                        if (options && options.deserializeDates) {
                            obj = JSON.parse(contents, dateTimeDeserializer);
                        }
                        else {
                            obj = JSON.parse(contents);
                        }
                        response.result = obj;
                    }
                    response.headers = res.message.headers;
                }
                catch (err) {
                    // Invalid resource (contents not json);  leaving result obj null
                }
                // note that 3xx redirects are handled by the http layer.
                if (statusCode > 299) {
                    let msg;
                    // if exception/error in body, attempt to get better error
                    if (obj && obj.message) {
                        msg = obj.message;
                    }
                    else if (contents && contents.length > 0) {
                        // it may be the case that the exception is in the body message as string
                        msg = contents;
                    }
                    else {
                        msg = `Failed request: (${statusCode})`;
                    }
                    const err = new HttpClientError(msg, statusCode);
                    err.result = response.result;
                    reject(err);
                }
                else {
                    resolve(response);
                }
            }));
        });
    }
}
const lowercaseKeys = (obj) => Object.keys(obj).reduce((c, k) => ((c[k.toLowerCase()] = obj[k]), c), {});
//# sourceMappingURL=index.js.map

/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId](module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/async module */
/******/ (() => {
/******/ 	var webpackQueues = typeof Symbol === "function" ? Symbol("webpack queues") : "__webpack_queues__";
/******/ 	var webpackExports = typeof Symbol === "function" ? Symbol("webpack exports") : "__webpack_exports__";
/******/ 	var webpackError = typeof Symbol === "function" ? Symbol("webpack error") : "__webpack_error__";
/******/ 	var resolveQueue = (queue) => {
/******/ 		if(queue && queue.d < 1) {
/******/ 			queue.d = 1;
/******/ 			queue.forEach((fn) => (fn.r--));
/******/ 			queue.forEach((fn) => (fn.r-- ? fn.r++ : fn()));
/******/ 		}
/******/ 	}
/******/ 	var wrapDeps = (deps) => (deps.map((dep) => {
/******/ 		if(dep !== null && typeof dep === "object") {
/******/ 			if(dep[webpackQueues]) return dep;
/******/ 			if(dep.then) {
/******/ 				var queue = [];
/******/ 				queue.d = 0;
/******/ 				dep.then((r) => {
/******/ 					obj[webpackExports] = r;
/******/ 					resolveQueue(queue);
/******/ 				}, (e) => {
/******/ 					obj[webpackError] = e;
/******/ 					resolveQueue(queue);
/******/ 				});
/******/ 				var obj = {};
/******/ 				obj[webpackQueues] = (fn) => (fn(queue));
/******/ 				return obj;
/******/ 			}
/******/ 		}
/******/ 		var ret = {};
/******/ 		ret[webpackQueues] = x => {};
/******/ 		ret[webpackExports] = dep;
/******/ 		return ret;
/******/ 	}));
/******/ 	__nccwpck_require__.a = (module, body, hasAwait) => {
/******/ 		var queue;
/******/ 		hasAwait && ((queue = []).d = -1);
/******/ 		var depQueues = new Set();
/******/ 		var exports = module.exports;
/******/ 		var currentDeps;
/******/ 		var outerResolve;
/******/ 		var reject;
/******/ 		var promise = new Promise((resolve, rej) => {
/******/ 			reject = rej;
/******/ 			outerResolve = resolve;
/******/ 		});
/******/ 		promise[webpackExports] = exports;
/******/ 		promise[webpackQueues] = (fn) => (queue && fn(queue), depQueues.forEach(fn), promise["catch"](x => {}));
/******/ 		module.exports = promise;
/******/ 		body((deps) => {
/******/ 			currentDeps = wrapDeps(deps);
/******/ 			var fn;
/******/ 			var getResult = () => (currentDeps.map((d) => {
/******/ 				if(d[webpackError]) throw d[webpackError];
/******/ 				return d[webpackExports];
/******/ 			}))
/******/ 			var promise = new Promise((resolve) => {
/******/ 				fn = () => (resolve(getResult));
/******/ 				fn.r = 0;
/******/ 				var fnQueue = (q) => (q !== queue && !depQueues.has(q) && (depQueues.add(q), q && !q.d && (fn.r++, q.push(fn))));
/******/ 				currentDeps.map((dep) => (dep[webpackQueues](fnQueue)));
/******/ 			});
/******/ 			return fn.r ? promise : getResult();
/******/ 		}, (err) => ((err ? reject(promise[webpackError] = err) : outerResolve(exports)), resolveQueue(queue)));
/******/ 		queue && queue.d < 0 && (queue.d = 0);
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/create fake namespace object */
/******/ (() => {
/******/ 	var getProto = Object.getPrototypeOf ? (obj) => (Object.getPrototypeOf(obj)) : (obj) => (obj.__proto__);
/******/ 	var leafPrototypes;
/******/ 	// create a fake namespace object
/******/ 	// mode & 1: value is a module id, require it
/******/ 	// mode & 2: merge all properties of value into the ns
/******/ 	// mode & 4: return value when already ns object
/******/ 	// mode & 16: return value when it's Promise-like
/******/ 	// mode & 8|1: behave like require
/******/ 	__nccwpck_require__.t = function(value, mode) {
/******/ 		if(mode & 1) value = this(value);
/******/ 		if(mode & 8) return value;
/******/ 		if(typeof value === 'object' && value) {
/******/ 			if((mode & 4) && value.__esModule) return value;
/******/ 			if((mode & 16) && typeof value.then === 'function') return value;
/******/ 		}
/******/ 		var ns = Object.create(null);
/******/ 		__nccwpck_require__.r(ns);
/******/ 		var def = {};
/******/ 		leafPrototypes = leafPrototypes || [null, getProto({}), getProto([]), getProto(getProto)];
/******/ 		for(var current = mode & 2 && value; typeof current == 'object' && !~leafPrototypes.indexOf(current); current = getProto(current)) {
/******/ 			Object.getOwnPropertyNames(current).forEach((key) => (def[key] = () => (value[key])));
/******/ 		}
/******/ 		def['default'] = () => (value);
/******/ 		__nccwpck_require__.d(ns, def);
/******/ 		return ns;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/make namespace object */
/******/ (() => {
/******/ 	// define __esModule on exports
/******/ 	__nccwpck_require__.r = (exports) => {
/******/ 		if(typeof Symbol !== 'undefined' && Symbol.toStringTag) {
/******/ 			Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
/******/ 		}
/******/ 		Object.defineProperty(exports, '__esModule', { value: true });
/******/ 	};
/******/ })();
/******/ 
/************************************************************************/
/******/ 
/******/ // startup
/******/ // Load entry module and return exports
/******/ // This entry module used 'module' so it can't be inlined
/******/ var __webpack_exports__ = __nccwpck_require__(407);
/******/ __webpack_exports__ = await __webpack_exports__;
/******/ 
