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
/***/ ((module, __webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(module, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   e: () => (/* binding */ run)
/* harmony export */ });
/* harmony import */ var _main_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(197);
/* harmony import */ var _runner_github_runner_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(130);


const run = () => (0,_main_js__WEBPACK_IMPORTED_MODULE_0__/* .run */ .e)(_runner_github_runner_js__WEBPACK_IMPORTED_MODULE_1__/* .githubRunner */ .O);
await (0,_runner_github_runner_js__WEBPACK_IMPORTED_MODULE_1__/* .startStep */ .b)(import.meta.url, run);

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 197:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  e: () => (/* binding */ run)
});

// UNUSED EXPORTS: failureMessage

// EXTERNAL MODULE: ./src/shared/errors.ts
var errors = __nccwpck_require__(382);
// EXTERNAL MODULE: ./src/shared/records.ts
var shared_records = __nccwpck_require__(443);
// EXTERNAL MODULE: ./src/shared/text.ts
var shared_text = __nccwpck_require__(646);
;// CONCATENATED MODULE: ./src/inputs/parsers.ts



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
function oneOf(choices) {
    return (raw, input) => {
        const choice = choices.find((c) => c === raw);
        if (choice !== undefined)
            return choice;
        throw new errors/* InputError */.dz(input, `must be one of ${choices.join(', ')}; got ${(0,shared_text/* quote */.hD)(raw)}.`);
    };
}
function readBoolean(raw, input) {
    if (!BOOLEANS.includes(raw))
        throw new errors/* InputError */.dz(input, `must be true or false; got ${(0,shared_text/* quote */.hD)(raw)}.`);
    return BOOLEANS.indexOf(raw) < 3;
}
function readRevokeOnExit(raw) {
    if (raw === 'failure')
        return 'failure';
    if (BOOLEANS.includes(raw))
        return readBoolean(raw, 'revokeOnExit') ? 'always' : 'never';
    throw new errors/* InputError */.dz('revokeOnExit', `must be true, false or failure (revoke only when the job does not succeed); got ${(0,shared_text/* quote */.hD)(raw)}.`);
}
function wholeNumber(min, max, what = 'a whole number') {
    return (raw, input) => {
        const number = /^\d+$/.test(raw) ? Number(raw) : NaN;
        if (number >= min && number <= max)
            return number;
        throw new errors/* InputError */.dz(input, `must be ${what} from ${min} to ${max}; got ${(0,shared_text/* quote */.hD)(raw)}.`);
    };
}
function readDuration(raw) {
    if (!raw)
        return undefined;
    const [, count, unit] = DURATION.exec(raw) ?? [];
    if (unit === undefined || !(Number(count) >= 1))
        throw new errors/* InputError */.dz('olderThan', `must be a whole number and a unit, m, h, d or w (90m, 12h, 30d, 2w); got ${(0,shared_text/* quote */.hD)(raw)}.`);
    return { text: raw, ms: Number(count) * UNIT_MS[unit] };
}
function readAuditAge(raw) {
    const age = readDuration(raw);
    if (age !== undefined)
        return age;
    throw new errors/* InputError */.dz('olderThan', 'is required for operation audit: the age past which an active token is a finding (90d, 12h, 2w).');
}
function readNameFilters(raw) {
    const lines = raw.split('\n').flatMap((line) => line.trim() || []);
    for (const line of lines)
        if (shared_text/* CONTROL_CHARACTER */.gW.test(line))
            throw new errors/* InputError */.dz('name', `must not hold control characters (tabs, carriage returns) within a line; got ${(0,shared_text/* quote */.hD)(line)}.`);
    return lines.length > 0 ? lines : undefined;
}
function readRequiredName(raw) {
    const [name] = readNameFilters(raw) ?? [];
    if (name === undefined)
        throw new errors/* InputError */.dz('name', "is required for this operation: the new token's name.");
    if (raw.includes('\n'))
        throw new errors/* InputError */.dz('name', `must be one line for operation create: a token has one name (several lines are filters, for list, cleanup and audit); got ${(0,shared_text/* quote */.hD)(raw)}.`);
    return name;
}
function readTokenId(raw) {
    if ((0,shared_records/* isUuid */.O1)(raw))
        return raw;
    throw new errors/* InputError */.dz('tokenId', raw
        ? `must be a UUID like 123e4567-e89b-42d3-a456-426614174000; got ${(0,shared_text/* quote */.hD)(raw)}.`
        : 'is required for operation revoke: the id (a UUID) of the token.');
}
function readKeepIds(raw) {
    const ids = raw.split('\n').flatMap((line) => line.trim() || []);
    const other = ids.find((id) => !(0,shared_records/* isUuid */.O1)(id));
    if (other === undefined)
        return ids;
    throw new errors/* InputError */.dz('keepIds', `must hold token ids (UUIDs), one per line, like 123e4567-e89b-42d3-a456-426614174000; got ${(0,shared_text/* quote */.hD)(other)}.`);
}
function readProjectId(raw) {
    if (!raw || (0,shared_records/* isUuid */.O1)(raw))
        return raw || undefined;
    throw new errors/* InputError */.dz('expectedProjectId', `must be a project id (a UUID) like 6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b; got ${(0,shared_text/* quote */.hD)(raw)}.`);
}
function readEnvName(raw, input = 'envName') {
    if (!raw)
        return undefined;
    if (!ENV_NAME.test(raw))
        throw new errors/* InputError */.dz(input, `must be an environment variable name (letters, digits and _, not starting with a digit); got ${(0,shared_text/* quote */.hD)(raw)}.`);
    const upper = raw.toUpperCase();
    const [pattern, why] = REFUSED_ENV_NAMES.find(([family]) => family.test(upper)) ?? [];
    if (pattern === undefined)
        return raw;
    const prefix = pattern.exec(upper)?.[1];
    const reason = why
        ? `names ${prefix === undefined ? 'ending in _PROXY' : `starting with ${prefix}`} ${why}`
        : 'it would change how every later step runs';
    throw new errors/* InputError */.dz(input, `must not be ${raw}: ${reason}. Choose a name of your own, like YOURSERVICE_GATEWAY_TOKEN.`);
}
function readUrl(raw, input, what) {
    const refuse = (problem) => new errors/* InputError */.dz(input, problem);
    if (!raw)
        throw refuse(`is required: ${what}, like https://api.example.com.`);
    if (!URL.canParse(raw))
        throw refuse(`must be an absolute URL like https://api.example.com; got ${(0,shared_text/* quote */.hD)(raw)}.`);
    const url = new URL(raw);
    if (url.username || url.password)
        throw refuse('must not contain a user name or password: the action authenticates with clientId and clientSecret.');
    if (url.search || url.hash)
        throw refuse(`must not have a query string or fragment (not shown here); got one after ${(0,shared_text/* quote */.hD)(url.origin + url.pathname)}.`);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (0,shared_text/* isLoopback */.U9)(url)))
        throw refuse(`must use https (http only for localhost, 127.0.0.0/8 and [::1]); got ${(0,shared_text/* quote */.hD)(raw)}.`);
    return url.origin + url.pathname.replace(/\/+$/, '');
}

;// CONCATENATED MODULE: ./src/inputs/unknown-inputs.ts

function inputVariable(name) {
    return name.replace(/ /g, '_').toUpperCase();
}
function refuseUnknownInputs(given, declared) {
    const known = new Set(declared.map(inputVariable));
    const [first, ...others] = given.filter((variable) => !known.has(variable.toUpperCase())).sort();
    if (first === undefined)
        return;
    const meant = closest(first, declared);
    const guess = meant === undefined ? ` (the inputs are ${declared.join(', ')}).` : `: did you mean '${meant}'?`;
    const also = others.map((variable) => {
        const other = closest(variable, declared);
        return `'${variable.toLowerCase()}'${other === undefined ? '' : ` (did you mean '${other}'?)`}`;
    });
    const alsoUnknown = also.length > 0 ? ` Also unknown: ${also.join(', ')}.` : '';
    throw new errors/* InputError */.dz(first.toLowerCase(), `is not an input of this action${guess}${alsoUnknown} Nothing was sent: the runner passes an unknown input on with only a warning, and a misspelt one could drop a filter and widen what the action revokes. If the step's with: does not set it, it may come from an env: block of the step, the job or the workflow: a variable named INPUT_${first.toUpperCase()} there reaches the action as an input; rename it.`);
}
function closest(variable, declared) {
    const squash = (name) => name.toUpperCase().replace(/[^A-Z0-9]/g, '');
    const wanted = squash(variable);
    const [best] = declared
        .map((name) => ({ name, distance: editDistance(wanted, squash(name)) }))
        .sort((a, b) => a.distance - b.distance);
    const near = Math.max(1, Math.floor(wanted.length / 4));
    return wanted !== '' && best !== undefined && best.distance <= near ? best.name : undefined;
}
function editDistance(a, b) {
    const rows = [Array.from({ length: b.length + 1 }, (_, j) => j)];
    const at = (i, j) => rows[i]?.[j] ?? Infinity;
    for (let i = 1; i <= a.length; i++) {
        const row = [i];
        rows.push(row);
        for (let j = 1; j <= b.length; j++) {
            const cost = a[i - 1] === b[j - 1] ? 0 : 1;
            const swap = a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1] ? at(i - 2, j - 2) + 1 : Infinity;
            row.push(Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost, swap));
        }
    }
    return at(a.length, b.length);
}

;// CONCATENATED MODULE: ./src/inputs/read.ts



const INPUT_DEFAULTS = {
    name: '',
    tokenId: '',
    envName: '',
    ifExists: 'create',
    revokeOnExit: 'false',
    state: 'all',
    olderThan: '',
    keep: '1',
    keepIds: '',
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
const DECLARED_INPUTS = [
    ...['operation', 'clientId', 'clientSecret', 'baseUrl', 'authUrl'],
    ...Object.keys(INPUT_DEFAULTS),
    JOB_STATUS_INPUT,
];
const TASK_INPUTS = {
    create: {
        name: readRequiredName,
        envName: readEnvName,
        ifExists: oneOf(['create', 'reuse', 'fail']),
        revokeOnExit: readRevokeOnExit,
        writeTokenFile: readBoolean,
    },
    list: { name: readNameFilters, state: oneOf(['active', 'revoked', 'all']) },
    revoke: { tokenId: readTokenId },
    cleanup: {
        name: readNameFilters,
        olderThan: readDuration,
        keep: wholeNumber(0, 1000),
        keepIds: readKeepIds,
        dryRun: readBoolean,
        concurrency: wholeNumber(1, 32),
    },
    audit: { name: readNameFilters, olderThan: readAuditAge },
};
const OPERATIONS = Object.keys(TASK_INPUTS);
const inputsOf = (operation) => Object.keys(TASK_INPUTS[operation]);
const TASK_SPECIFIC = [...new Set(Object.values(TASK_INPUTS).flatMap(Object.keys))];
function readInputs(read, secrets, given) {
    secrets.add(read('clientSecret'));
    refuseUnknownInputs(given, DECLARED_INPUTS);
    const raw = read('operation');
    if (!raw)
        throw new errors/* InputError */.dz('operation', `is required: one of ${OPERATIONS.join(', ')}.`);
    const operation = oneOf(OPERATIONS)(raw, 'operation');
    const connection = readConnection(read, secrets);
    const value = withDefaults(read);
    const summary = readBoolean(value('summary'), 'summary');
    const taskParsers = TASK_INPUTS[operation];
    const fields = Object.entries(taskParsers).map(([input, parse]) => [input, parse(value(input), input)]);
    const task = { operation, ...Object.fromEntries(fields) };
    if (task.operation === 'cleanup' && task.name === undefined && task.olderThan === undefined)
        throw new errors/* InputError */.dz('name', "or 'olderThan' is required for operation cleanup: say which tokens to revoke (name: ci-*, olderThan: 30d). Nothing was revoked.");
    return {
        connection,
        task,
        summary,
        expectedProjectId: readProjectId(value('expectedProjectId')),
        warnings: TASK_SPECIFIC.filter((input) => !(input in taskParsers) && value(input) !== INPUT_DEFAULTS[input]).map((input) => `Input '${input}' is not used by operation ${operation}; it is ignored.`),
    };
}
function readConnection(read, secrets) {
    const clientSecret = read('clientSecret');
    secrets.add(clientSecret);
    const clientId = read('clientId');
    const required = (input, what) => new errors/* InputError */.dz(input, `is required: the API client ${what}, from a secret. ${errors/* FORK_HINT */.DS}`);
    if (!clientId)
        throw required('clientId', 'id');
    if (!clientSecret)
        throw required('clientSecret', 'secret');
    const authUrl = readUrl(read('authUrl'), 'authUrl', 'the auth service base URL');
    const value = withDefaults(read);
    const seconds = (input, min, max) => wholeNumber(min, max, 'a whole number of seconds')(value(input), input) * 1000;
    return {
        clientId,
        clientSecret,
        baseUrl: readUrl(read('baseUrl'), 'baseUrl', 'the REST API base URL'),
        authUrl,
        timeoutMs: seconds('timeout', 1, 600),
        retries: wholeNumber(0, 10)(value('retries'), 'retries'),
        totalTimeoutMs: seconds('totalTimeout', 0, 21_600),
    };
}
const withDefaults = (read) => (input) => read(input) || INPUT_DEFAULTS[input];

// EXTERNAL MODULE: ./src/platform/create-life.ts
var create_life = __nccwpck_require__(50);
;// CONCATENATED MODULE: ./src/operations/create.ts




async function create(client, { name, ifExists, revokeOnExit }, record) {
    const tokens = ifExists === 'create' ? [] : await client.listTokens();
    const [existing] = (0,shared_records/* newestFirst */.ll)(tokens.filter((t) => t.name === name && t.state === 'active'));
    if (existing === undefined) {
        const token = await client.createToken(name, { when: revokeOnExit, record });
        return { operation: 'create', token, reused: false };
    }
    const which = `an active token named '${name}' exists already: ${existing.id}, created ${existing.createdAt ?? 'at an unknown time'}`;
    if (ifExists === 'fail')
        throw new errors/* ActionError */.lZ(`${which}, and ifExists is fail.`);
    if (existing.tokenValue === undefined)
        throw new errors/* ActionError */.lZ(`${which}, but the platform did not return its value, so it cannot be reused.`);
    return { operation: 'create', token: existing, reused: true };
}
async function handOnFailed(client, { token, reused }, error) {
    const why = (0,shared_text/* asSentence */.KG)((0,errors/* messageOf */.bD)(error));
    if (reused)
        return new errors/* ActionError */.lZ(`${why} The reused ${(0,shared_records/* tokenLabel */.Sk)(token)} stays active.`);
    const revoked = await (0,create_life/* revokeUnheld */.pZ)((id) => client.revokeToken(id), token);
    return new errors/* ActionError */.lZ(`${why} The value of the new ${(0,shared_records/* tokenLabel */.Sk)(token)} was not handed on. ${revoked}`);
}

// EXTERNAL MODULE: ./src/shared/time.ts + 1 modules
var time = __nccwpck_require__(877);
;// CONCATENATED MODULE: ./src/operations/cleanup-plan.ts

function planCleanup(tokens, task, now) {
    const matches = nameMatcher(task.name);
    const selected = (0,shared_records/* newestFirst */.ll)(tokens.filter((t) => t.state === 'active' && matches(t.name)));
    const records = new Map();
    for (const { name } of tokens)
        records.set(name, (records.get(name) ?? 0) + 1);
    const times = new Map();
    for (const token of selected) {
        const created = (0,shared_records/* createdTime */.wO)(token);
        if (created === undefined)
            continue;
        if (times.has(token.name))
            times.get(token.name)?.push(created);
        else
            times.set(token.name, [created]);
    }
    const { olderThan } = task;
    const ageMatters = olderThan !== undefined || task.keep > 0;
    const exactNames = new Set(task.name?.filter((line) => !line.includes('*')));
    const spared = new Set(task.keepIds?.map((id) => id.toLowerCase()));
    const plan = { revoke: [], kept: [] };
    for (const token of selected) {
        const { name } = token;
        const created = (0,shared_records/* createdTime */.wO)(token);
        const young = olderThan && created !== undefined && !isOlder(created, olderThan, now);
        if (young && name !== undefined)
            continue;
        const named = times.get(name) ?? [];
        const boundary = named[Math.min(task.keep, named.length) - 1] ?? Infinity;
        if (spared.has(token.id.toLowerCase()))
            plan.kept.push({ token, why: 'keepIds' });
        else if (name === undefined)
            plan.kept.push({ token, why: 'unreadable name' });
        else if (created === undefined && ageMatters)
            plan.kept.push({ token, why: 'unreadable date' });
        else if (created !== undefined && created >= boundary) {
            const sole = !exactNames.has(name) && records.get(name) === 1;
            plan.kept.push({ token, why: 'keep', ...(sole && { soleOfName: true }) });
        }
        else
            plan.revoke.push(token);
    }
    return plan;
}
function isOlder(created, age, now) {
    return now - created > age.ms;
}
function nameMatcher(filters) {
    if (filters === undefined)
        return () => true;
    const each = filters.map(patternMatcher);
    const everyName = filters.some((filter) => /^\*+$/.test(filter));
    return (name) => name === undefined ? everyName : each.some((matches) => matches(name));
}
function patternMatcher(pattern) {
    const [first = '', ...middle] = pattern.split('*');
    const last = middle.pop();
    if (last === undefined)
        return (name) => name === pattern;
    return (name) => {
        if (!name.startsWith(first) || !name.endsWith(last))
            return false;
        let at = first.length;
        for (const part of middle) {
            const found = name.indexOf(part, at);
            if (found === -1)
                return false;
            at = found + part.length;
        }
        return at <= name.length - last.length;
    };
}

;// CONCATENATED MODULE: ./src/operations/audit.ts




async function audit(client, task, clock) {
    const tokens = await client.listTokens();
    const { now, ages } = (0,time/* agesNow */.PU)(clock, (at) => client.platformTime(at));
    const listed = { total: tokens.length, project: (0,shared_records/* projectOf */.v8)(tokens), now, ages };
    return { operation: 'audit', ...planAudit(tokens, task, now), ...listed };
}
function planAudit(tokens, task, now) {
    const matches = nameMatcher(task.name);
    const active = tokens.filter((token) => token.state === 'active' && matches(token.name));
    const undated = active.filter((token) => (0,shared_records/* createdTime */.wO)(token) === undefined);
    const older = (token) => isOlder((0,shared_records/* createdTime */.wO)(token) ?? Infinity, task.olderThan, now);
    return { findings: (0,shared_records/* newestFirst */.ll)(active.filter(older)), undated };
}
function auditOutcome(result, { name, olderThan }) {
    const { findings, undated, total } = result;
    const unknown = undated.length > 0 ? `; ${undated.length} more cannot be dated` : '';
    if (findings.length === 0 && undated.length === 0)
        return `No active token${name ? ' matching name' : ''} is older than ${olderThan.text} (${(0,shared_text/* countTokens */.ih)(total)} checked).`;
    if (findings.length === 0) {
        const [them, are] = undated.length === 1 ? ['it', 'is'] : ['they', 'are'];
        return `${undated.length} active ${undated.length === 1 ? 'token' : 'tokens'} cannot be dated: this audit cannot tell whether ${them} ${are} older than ${olderThan.text}.`;
    }
    const are = findings.length === 1 ? 'is' : 'are';
    return `${findings.length} active ${findings.length === 1 ? 'token' : 'tokens'} ${are} older than ${olderThan.text}${unknown}.`;
}
function auditFailure(result, task) {
    const { findings, undated } = result;
    if (findings.length === 0 && undated.length === 0)
        return undefined;
    const whereAll = 'the job summary and the tokensFile output list them';
    const found = findings.length > 0 ? ` Older: ${(0,shared_text/* someOf */.yU)(findings.map(shared_records/* nameAndId */.wW), whereAll)}` : '';
    const unknown = undated.length > 0
        ? ` Their createdAt cannot be read: ${(0,shared_text/* someOf */.yU)(undated.map(shared_records/* nameAndId */.wW), 'each has a warning above')}`
        : '';
    return `${auditOutcome(result, task)}${found}${unknown}`;
}

// EXTERNAL MODULE: ./src/platform/client.ts + 1 modules
var platform_client = __nccwpck_require__(91);
;// CONCATENATED MODULE: external "node:events"
const external_node_events_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:events");
// EXTERNAL MODULE: ./src/platform/failures.ts
var failures = __nccwpck_require__(640);
;// CONCATENATED MODULE: ./src/operations/learnt.ts
const FIRST_STEP_MS = 50;
const LONGEST_STEP_MS = 1_000;
class Learnt {
    value;
    stepMs = FIRST_STEP_MS;
    changedAt = -Infinity;
    downAt = -Infinity;
    triedUntil = 0;
    held = Infinity;
    failed = Infinity;
    constructor(value) {
        this.value = value;
    }
    get steppedUp() {
        return this.changedAt > this.downAt;
    }
    down(to, now, tryMs = 0) {
        if (to >= this.value)
            return false;
        if (this.steppedUp && now < this.triedUntil)
            this.stepMs = Math.min(LONGEST_STEP_MS, this.stepMs * 2);
        this.value = this.held = to;
        this.downAt = this.changedAt = now;
        this.triedUntil = now + tryMs;
        return true;
    }
    up(to, now, tryMs, capMs = Infinity) {
        if (now < this.changedAt + Math.min(this.stepMs, Math.max(FIRST_STEP_MS, capMs)))
            return false;
        if (this.steppedUp)
            this.stepMs = Math.max(FIRST_STEP_MS, this.stepMs / 4);
        this.value = to;
        this.changedAt = now;
        this.triedUntil = now + tryMs;
        return true;
    }
}

;// CONCATENATED MODULE: ./src/operations/pool.ts



const SECOND = 1_000;
const UNDER = 0.9;
const FASTER = 1.5;
const PAST = 1.1;
class Pool {
    concurrency;
    clock;
    deadline;
    log;
    limit;
    pace = new Learnt(Infinity);
    inFlight = new Set();
    sentAt = [];
    letIn = [];
    fastestMs = Infinity;
    last429 = { at: -Infinity, waitMs: SECOND };
    saidLimit = Infinity;
    spaced;
    constructor(concurrency, clock, deadline, log) {
        this.concurrency = concurrency;
        this.clock = clock;
        this.deadline = deadline;
        this.log = log;
        this.limit = new Learnt(concurrency);
    }
    async run(items, send, left) {
        const { clock, deadline, limit, pace } = this;
        const results = new Array(items.length);
        const pending = items.map((item, index) => ({
            item,
            index,
            attemptsUsed: 0,
            notBefore: 0,
            last: false,
        }));
        let bug;
        let wake = new AbortController();
        const woken = () => {
            wake.abort();
            wake = new AbortController();
        };
        deadline.stopSignal.addEventListener('abort', woken);
        const start = async (entry, spacedMs) => {
            const sentAt = clock.now();
            const request = { sentAt, pace: pace.value, others: [...this.inFlight] };
            this.inFlight.add(request);
            this.sentAt.push(sentAt);
            try {
                const sent = await send(entry.item, entry.attemptsUsed);
                const now = clock.now();
                const slowest = Math.max(...this.letIn.slice(-4).map(({ ms }) => ms));
                const blur = Math.max(0, slowest - (3 * this.fastestMs) / 4) * ('done' in sent ? 1 : -1);
                const arrivedAt = Math.max(request.sentAt, now - this.fastestMs) + blur;
                const there = (other) => (other.turnedAway === undefined || blur < 0) && (other.answeredAt ?? Infinity) > arrivedAt;
                const depth = 1 + request.others.filter(there).length;
                if ('done' in sent) {
                    results[entry.index] = sent.done;
                    if (sent.failed)
                        return;
                    this.letIn.push({ at: now, depth, ms: now - request.sentAt, others: request.others });
                    this.fastestMs = Math.min(this.fastestMs, now - request.sentAt);
                    if (request.sentAt >= pace.downAt)
                        pace.held = Math.max(pace.held, request.pace);
                    const besideOne = spacedMs !== undefined && request.others.length > 0;
                    if (besideOne && pace.down(SECOND / spacedMs, now))
                        this.spaced = 'paced';
                    return;
                }
                request.turnedAway = true;
                if (spacedMs !== undefined)
                    this.spaced = 'out';
                for (const admitted of this.letIn)
                    if (admitted.others.includes(request))
                        admitted.depth--;
                const { attemptsUsed, guessed, waitMs: told } = sent.throttled;
                const waitMs = this.throttled(depth, request, now) && guessed === true ? 0 : told;
                this.last429 = { at: now, waitMs };
                entry.attemptsUsed = attemptsUsed;
                entry.last = sent.throttled.last === true;
                entry.notBefore = now + waitMs + clock.jitter() * Math.min(100, 10 + waitMs / 40);
                const before = (other) => other.attemptsUsed !== 0 && other.notBefore <= entry.notBefore;
                if (entry.notBefore >= now + deadline.remaining())
                    results[entry.index] = left(entry.item, sent.throttled);
                else
                    pending.splice(pending.findLastIndex(before) + 1, 0, entry);
            }
            catch (error) {
                bug = { error };
            }
            finally {
                request.answeredAt = clock.now();
                request.others = [];
                this.inFlight.delete(request);
                woken();
            }
        };
        while (bug === undefined) {
            const now = clock.now();
            while (this.letIn.length > 4 && (this.letIn[0]?.at ?? now) <= now - SECOND)
                this.letIn.shift();
            while (this.sentAt.length > 1 && (this.sentAt[0] ?? now) <= now - SECOND)
                this.sentAt.shift();
            if (deadline.expired())
                for (const entry of pending.splice(0))
                    results[entry.index] = left(entry.item);
            if (pending.length === 0 && this.inFlight.size === 0)
                break;
            const fresh = pending.at(-1)?.attemptsUsed === 0;
            const final = pending.find((entry) => entry.last && entry.notBefore <= now);
            if (final === undefined)
                this.stepUp(now, pending);
            const triedUntil = Math.max(limit.triedUntil, pace.triedUntil);
            const gotIn = (this.letIn.at(-1)?.at ?? -Infinity) > this.last429.at;
            const safe = fresh ? now >= triedUntil && gotIn : gotIn || this.inFlight.size === 0;
            const ready = final ?? pending.find((entry) => entry.notBefore <= now && (safe || !entry.attemptsUsed));
            const free = final ? this.inFlight.size === 0 : this.inFlight.size < limit.value;
            const sentLast = this.sentAt.at(-1) ?? now;
            const step = limit.value === 2 && limit.steppedUp && sentLast <= limit.changedAt;
            const spacing = (this.fastestMs * (this.spaced === undefined ? 2 : 3)) / 4;
            const lastSecond = final ? this.letIn.filter(({ at }) => at > now - SECOND) : [];
            const gaps = lastSecond.map(({ at }, i) => at - (lastSecond[i - 1]?.at ?? at));
            const apart = final ? sentLast + Math.max(0, ...gaps) : now;
            const paced = Math.max(this.nextSendAt(), step ? sentLast + spacing : now, apart);
            if (ready !== undefined && free && paced <= now) {
                pending.splice(pending.indexOf(ready), 1);
                void start(ready, step ? now - sentLast : undefined);
                continue;
            }
            const first = pending[0]?.notBefore ?? Infinity;
            const held = first > now ? first : triedUntil > now ? triedUntil : Infinity;
            const wakeAt = ready ? Math.min(paced, now + FIRST_STEP_MS) : Math.max(held, paced);
            if (!free || wakeAt === Infinity)
                await (0,external_node_events_namespaceObject.once)(wake.signal, 'abort');
            else
                await clock.sleep(wakeAt - now, wake.signal);
        }
        deadline.stopSignal.removeEventListener('abort', woken);
        if (bug !== undefined)
            throw bug.error;
        return results;
    }
    throttled(depth, request, now) {
        const { pace } = this;
        const recent = now - Math.max(SECOND / 10, 4 * (this.letIn.at(-1)?.ms ?? 0));
        const deep = this.letIn.some((admitted) => admitted.at >= recent && admitted.depth >= depth);
        const paceTried = request.pace > pace.held && this.spaced === 'paced';
        if (depth > 1 && !deep && !paceTried) {
            if (!this.limit.down(depth - 1, now) || depth - 1 >= this.saidLimit)
                return true;
            this.saidLimit = depth - 1;
            this.log.info(`The platform turned away a revoke with ${depth - 1} other${depth === 2 ? '' : 's'} in flight: sending at most ${depth - 1} at a time.`);
            return true;
        }
        if (request.sentAt < pace.downAt)
            return false;
        pace.failed = Math.min(pace.failed, request.pace);
        const first = this.letIn[0] ?? { at: now, ms: 0 };
        const letIn = (this.letIn.length * SECOND) / Math.max(SECOND, now - first.at + first.ms);
        const sending = (this.sentAt.length * SECOND) / Math.max(10, now - (this.sentAt[0] ?? now));
        const half = Math.max(1, Math.min(request.pace, sending) / 2);
        const under = letIn === 0 ? half : letIn < request.pace ? UNDER * letIn : Infinity;
        const once = pace.downAt === -Infinity;
        if (pace.down(request.pace > pace.held ? pace.held : under, now, this.paceTrialMs()) && once)
            this.log.info('The platform limits the rate of requests: sending revokes a little slower than it lets them in.');
        return false;
    }
    stepUp(now, pending) {
        const { limit, pace } = this;
        const atLimit = this.inFlight.size >= limit.value && limit.value < this.concurrency;
        const fresh = pending.length - 1 - pending.findLastIndex((entry) => entry.attemptsUsed !== 0);
        const next = fresh > (atLimit ? limit.value : 0) ? pending.at(-1) : pending[0];
        if (next === undefined || next.attemptsUsed > 1 || next.notBefore > now)
            return;
        const roundTrip = Math.max(1, this.letIn.at(-1)?.ms ?? Infinity);
        const rate = Math.min(pace.value, (limit.value * SECOND) / roundTrip);
        const backoff = next.attemptsUsed && (0,failures/* backoffDelay */.EY)(next.attemptsUsed + 1, 1);
        const failedAt = now + this.last429.waitMs + backoff;
        const workMs = (pending.length * SECOND) / rate;
        if (failedAt >= now + workMs)
            return;
        if (atLimit && this.letIn.some((admitted) => admitted.depth >= limit.value))
            limit.up(limit.value + 1, now, 2 * roundTrip, workMs / 8);
        else if (!atLimit && this.nextSendAt() > now) {
            const near = pace.value >= 0.95 * pace.failed;
            const halfway = Math.min(pace.value * FASTER, (pace.value + pace.failed) / 2);
            if (pace.up(near ? pace.value * PAST : halfway, now, this.paceTrialMs()) && near)
                pace.failed = Infinity;
        }
    }
    nextSendAt() {
        return Math.max(this.sentAt.at(-1) ?? -Infinity, this.pace.downAt) + SECOND / this.pace.value;
    }
    paceTrialMs = () => Math.max(SECOND, (4 * SECOND) / this.pace.held);
}

;// CONCATENATED MODULE: ./src/operations/cleanup.ts






const SETTLE_GRACE_MS = 5_000;
async function cleanup(client, task, { clock, log, deadline }) {
    const tokens = await client.listTokens();
    const aged = (0,time/* agesNow */.PU)(clock, (at) => client.platformTime(at));
    const plan = planCleanup(tokens, task, aged.now);
    let slowestMs = 0;
    const send = async ({ id: tokenId }, attemptsUsed) => {
        const sentAt = clock.now();
        try {
            const options = { pooled: { attemptsUsed }, settle: 'later' };
            const answer = await client.revokeToken(tokenId, options);
            slowestMs = Math.max(slowestMs, clock.now() - sentAt);
            return { done: answer };
        }
        catch (error) {
            if (error instanceof errors/* ThrottledError */.Xe)
                return { throttled: error.throttle };
            if (!(error instanceof errors/* RequestError */.GI))
                throw error;
            if (error instanceof errors/* DeadlineError */.j3) {
                const done = error.mayHaveTakenEffect ? { tokenId, unsure: error } : undefined;
                return { done, failed: true };
            }
            const unsettled = error instanceof errors/* UnsettledRevokeError */.V0;
            return { done: unsettled ? { tokenId, unsettled: error } : { error }, failed: true };
        }
    };
    const unsent = (_, throttle) => {
        if (throttle === undefined || deadline.expired())
            return undefined;
        const end = `Its wait ends after ${deadline.describe()} does: run the cleanup again later.`;
        return { error: new errors/* RequestError */.GI(`${throttle.why} ${end}`, 429) };
    };
    const ends = task.dryRun
        ? plan.revoke.map((token) => ({ token, alreadyRevoked: false }))
        :
            await new Pool(task.concurrency, clock, deadline, log).run(plan.revoke, send, unsent);
    const settled = await settleEnds(client, ends, { clock, deadline, slowestMs });
    const revoked = [];
    const revokedElsewhere = [];
    const notRevoked = [];
    const left = [];
    const unknown = [];
    plan.revoke.forEach((token, i) => {
        const end = settled[i];
        if (end === 'unknown')
            unknown.push(token);
        else if (end === undefined)
            left.push(token);
        else if ('error' in end)
            notRevoked.push({ token, reason: end.error.message });
        else
            (end.alreadyRevoked ? revokedElsewhere : revoked).push(end.token);
    });
    return {
        operation: 'cleanup',
        revoked: (0,shared_records/* newestFirst */.ll)(revoked),
        revokedElsewhere: (0,shared_records/* newestFirst */.ll)(revokedElsewhere),
        kept: plan.kept,
        notRevoked,
        left,
        unknown,
        project: (0,shared_records/* projectOf */.v8)(tokens),
        stop: deadline.cause(),
        ...aged,
    };
}
async function settleEnds(client, ends, { clock, deadline, slowestMs }) {
    const refusals = ends.flatMap((end) => (end !== undefined && 'unsettled' in end ? [end] : []));
    const unsure = ends.some((end) => end !== undefined && 'unsure' in end);
    if (unsure) {
        deadline.grace(SETTLE_GRACE_MS);
        await clock.sleep(Math.min(SETTLE_GRACE_MS / 2, 2 * slowestMs), deadline.stopSignal);
    }
    const listed = refusals.length > 0 || unsure ? client.listTokens() : undefined;
    listed?.catch(() => undefined);
    const settled = await (0,platform_client/* settleRefusals */.LO)(() => listed ?? client.listTokens(), refusals);
    const tokens = await listed?.catch(() => undefined);
    return ends.map((end) => {
        if (end === undefined || !('unsure' in end || 'unsettled' in end))
            return end;
        if ('unsettled' in end)
            return settled.shift();
        const found = tokens && (0,shared_records/* findById */.uz)(tokens, end.tokenId);
        if (found?.state === 'revoked')
            return { token: found, alreadyRevoked: false };
        return found?.state === 'active' ? undefined : 'unknown';
    });
}

;// CONCATENATED MODULE: ./src/operations/index.ts





async function perform(client, task, context) {
    switch (task.operation) {
        case 'create':
            return { operation: 'create', task, result: await create(client, task, context.record) };
        case 'list':
            return { operation: 'list', task, result: await list(client, task) };
        case 'revoke': {
            const result = { operation: 'revoke', ...(await client.revokeToken(task.tokenId)) };
            return { operation: 'revoke', task, result };
        }
        case 'cleanup':
            return { operation: 'cleanup', task, result: await cleanup(client, task, context) };
        case 'audit':
            return { operation: 'audit', task, result: await audit(client, task, context.clock) };
    }
}
async function list(client, { name, state }) {
    const all = await client.listTokens();
    const matches = nameMatcher(name);
    const tokens = all.filter((t) => matches(t.name) && (state === 'all' || t.state === state));
    const project = (0,shared_records/* projectOf */.v8)(all);
    return { operation: 'list', tokens: (0,shared_records/* newestFirst */.ll)(tokens), total: all.length, project };
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
        if (other !== undefined)
            throw new errors/* ActionError */.lZ(`the platform listed ${(0,shared_records/* nameAndId */.wW)(other)} of project ${projectOf(other)}, but expectedProjectId is ${this.expected}: these credentials reach another project. Nothing was revoked or created; check clientId, clientSecret and baseUrl.`);
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
        const revoked = await (0,create_life/* revokeUnheld */.pZ)((id) => this.api.revokeToken(id), token);
        throw new errors/* ActionError */.lZ(`the new token ${(0,shared_records/* nameAndId */.wW)(token)} belongs to project ${projectOf(token)}, but expectedProjectId is ${this.expected}: its value was not handed on. ${revoked} Check clientId, clientSecret and baseUrl.`);
    }
    async revokeToken(tokenId, options) {
        if (!this.checked.has(tokenId.toLowerCase()))
            await this.listTokens();
        return this.api.revokeToken(tokenId, options);
    }
    platformTime = (at) => this.api.platformTime(at);
    isExpected(token) {
        return token.projectId?.toLowerCase() === this.expected.toLowerCase();
    }
}
function projectOf(token) {
    return token.projectId === undefined ? '(none given)' : (0,shared_text/* truncate */.xv)((0,shared_text/* oneLine */.TN)(token.projectId), 80);
}

// EXTERNAL MODULE: ./src/platform/api.ts
var api = __nccwpck_require__(55);
;// CONCATENATED MODULE: ./src/post/state.ts


const CREATE = 'create';
const TOKEN_FILE = 'tokenFile';
const CREATE_FIELDS = ['name', 'sentAt', 'lastInFlightAt', 'state', 'id', 'lostEarlier', 'when'];
class PostState {
    runner;
    constructor(runner) {
        this.runner = runner;
    }
    create = (record) => {
        if (record.when === 'never')
            return;
        this.runner.saveState(CREATE, JSON.stringify(record, CREATE_FIELDS));
    };
    tokenFile(path) {
        this.runner.saveState(TOKEN_FILE, path);
    }
}
function readSavedCreate(runner) {
    const saved = (parseJson(runner.getState(CREATE) || '{}') ?? {});
    const { name, sentAt, lastInFlightAt, state, id, lostEarlier, when } = saved;
    if (typeof name !== 'string' || name === '' || !Number.isSafeInteger(sentAt))
        return undefined;
    return {
        name,
        sentAt: sentAt,
        ...(Number.isSafeInteger(lastInFlightAt) && { lastInFlightAt: lastInFlightAt }),
        state: CREATE_STATES.find((known) => known === state) ?? 'unknown',
        ...(typeof id === 'string' && id !== '' && { id }),
        ...(lostEarlier === true && { lostEarlier }),
        when: when === 'failure' ? 'failure' : 'always',
    };
}
function savedTokenFile(runner) {
    return runner.getState(TOKEN_FILE) || undefined;
}

;// CONCATENATED MODULE: ./src/report/markdown.ts

const PIECE = /<(\/?)([a-z]+)>|&#?[a-z0-9]+;|[\s\S]/giu;
function cutMarkdown(markdown, maxBytes) {
    if (Buffer.byteLength(markdown) <= maxBytes)
        return markdown;
    const closers = (open) => open.reduce((all, tag) => `</${tag}>${all}`, '');
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
    if (!MAYBE_SPECIAL.test(value))
        return value;
    return value.replace(markdownSpecial(), (c) => `&#${c.charCodeAt(0)};`);
}

;// CONCATENATED MODULE: ./src/report/wording.ts




function leftBecause({ stop }) {
    return stop.by === 'cancel' ? 'the step was cancelled' : 'totalTimeout ran out';
}
function ageOf(token, now) {
    const created = (0,shared_records/* createdTime */.wO)(token);
    return created === undefined ? undefined : (0,shared_text/* formatAge */.nV)(now - created);
}
function whyKept({ why, soleOfName }, keep) {
    if (why === 'keepIds')
        return 'its id is in keepIds';
    if (why === 'unreadable name')
        return KEPT_NAMELESS;
    if (why === 'unreadable date')
        return UNDATED;
    const which = keep === 1 ? 'the newest of its name' : `one of the ${keep} newest of its name`;
    const hint = soleOfName ? '; the only token its name has: keep: 0 revokes it too' : '';
    return `${which} (keep: ${keep})${hint}`;
}
const UNDATED = 'its createdAt cannot be read';
function ageUnknown(token) {
    const createdAt = token.createdAt === undefined ? 'none' : (0,shared_text/* quote */.hD)(token.createdAt, 100);
    return `Token ${(0,shared_records/* nameAndId */.wW)(token)} has a createdAt that cannot be read (${createdAt}): its age is unknown`;
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
    if (ages.by === 'runner')
        return "The platform's answers carry no Date header: ages are measured on the runner's clock.";
    if (Math.abs(ages.skewMs) <= CLOCK_SKEW_WARNING_MS)
        return undefined;
    const way = ages.skewMs > 0 ? 'behind' : 'ahead of';
    const apart = Math.round(Math.abs(ages.skewMs) / 60_000) * 60_000;
    return `The runner's clock is ${(0,shared_text/* formatAge */.nV)(apart)} ${way} the platform's (by the Date header of its list answer): ages are measured on the platform's clock.`;
}
function allRevoked({ revoked, revokedElsewhere }) {
    return revokedElsewhere.length === 0 ? revoked : (0,shared_records/* newestFirst */.ll)([...revoked, ...revokedElsewhere]);
}
function revokedElsewhereNote(token) {
    const at = token.revokedAt ? ` at ${(0,shared_text/* oneLine */.TN)(token.revokedAt)}` : '';
    const by = token.revokedBy ? ` by ${(0,shared_text/* truncate */.xv)((0,shared_text/* oneLine */.TN)(token.revokedBy), 80)}` : '';
    return `was revoked by someone else meanwhile${at}${by} (another job, or a person): counted as revoked`;
}
function cleanupOutcome(result, { dryRun }) {
    if (dryRun)
        return `Dry run: ${(0,shared_text/* countTokens */.ih)(result.revoked.length)} would be revoked; nothing was revoked.`;
    const more = [
        [result.revokedElsewhere.length, 'more had been revoked by someone else meanwhile'],
        [result.notRevoked.length, 'could not be revoked'],
        [result.left.length, `left when ${leftBecause(result)}`],
        [result.unknown.length, unknownBecause(result)],
    ];
    const said = more.filter(([count]) => count > 0).map(([count, what]) => `; ${count} ${what}`);
    return `Revoked ${(0,shared_text/* countTokens */.ih)(result.revoked.length)}${said.join('')}.`;
}
function stepFailure(outcome) {
    if (outcome.operation === 'audit')
        return auditFailure(outcome.result, outcome.task);
    if (outcome.operation !== 'cleanup')
        return undefined;
    const { result } = outcome;
    const unknown = result.unknown.length > 0
        ? `${(0,shared_text/* countTokens */.ih)(result.unknown.length)} ${unknownBecause(result)}; list the tokens to see: ${(0,shared_text/* someOf */.yU)(result.unknown.map(shared_records/* nameAndId */.wW), 'each has a warning above')}`
        : undefined;
    const failures = [timeoutFailure(result), unknown, cleanupFailure(result)];
    return failures.filter((failure) => failure !== undefined).join(' ') || undefined;
}
function unknownBecause(result) {
    return `may have been revoked or not: in flight when ${leftBecause(result)}, and no list could tell`;
}
function timeoutFailure({ left, revoked, stop }) {
    if (left.length === 0)
        return undefined;
    return `${(0,time/* stopped */.ce)(stop)}: ${(0,shared_text/* countTokens */.ih)(revoked.length)} revoked, ${left.length} left active; run the cleanup again to revoke them.`;
}
function cleanupFailure(result) {
    const { notRevoked } = result;
    if (notRevoked.length === 0)
        return undefined;
    const revoked = allRevoked(result);
    const each = notRevoked.map(({ token, reason }) => `${(0,shared_records/* nameAndId */.wW)(token)}: ${reason}`);
    const shown = (0,shared_text/* someOf */.yU)(each, 'each has a warning above, and the job summary lists them', ' ', '');
    const were = (n) => (n === 1 ? 'was' : 'were');
    return `${notRevoked.length} of ${(0,shared_text/* countTokens */.ih)(notRevoked.length + revoked.length)} ${were(notRevoked.length)} not revoked (the other ${revoked.length} ${were(revoked.length)}): ${shown}`;
}

;// CONCATENATED MODULE: ./src/report/summary.ts





const SUMMARY_LIMIT_BYTES = 128 * 1024;
const RESERVE_BYTES = 4 * 1024;
const FIELD_CHARACTERS = 200;
const ALL_IN_TOKENS_FILE = 'the file named by the <code>tokensFile</code> output has all of them';
const CELLS = {
    Name: (row) => (row.name === undefined ? `<em>${shared_records/* NO_NAME */.Wo}</em>` : field(row.name)),
    Id: (row) => code(row.id),
    State: (row) => field(row.state),
    Created: (row) => date(row.createdAt),
    'Created by': (row) => field(row.createdByEmail ?? row.createdBy ?? ''),
    Revoked: (row) => date(row.revokedAt),
    By: (row) => field(row.revokedBy ?? ''),
    Age: (row, now) => ageOf(row, now) ?? 'unknown',
    Why: (row) => field(row.why ?? ''),
};
function createSummary({ token, reused }, task) {
    const env = task.envName ? ` and the environment variable ${code(task.envName)}` : '';
    const mediator = token.mediatorId ? ` for mediator ${code(token.mediatorId)}` : '';
    const what = reused
        ? `Reused ${describeToken(token)}${mediator}, created ${date(token.createdAt)}: no new token was created.`
        : `Created ${describeToken(token)}${mediator}.`;
    const value = `Its value is in the step output <code>tokenValue</code>${env}, masked in the log.`;
    return new Summary(reused ? 'Gateway token reused' : 'Gateway token created')
        .paragraph(what, value, revokeOnExitNote(task.revokeOnExit, reused))
        .toString();
}
function revokeSummary({ token, alreadyRevoked }) {
    const when = token.revokedAt ? ` at ${date(token.revokedAt)}` : '';
    const what = alreadyRevoked
        ? `The ${describeToken(token)} was already revoked${when}; nothing changed.`
        : `Revoked ${describeToken(token)}${when}.`;
    return new Summary('Gateway token revoked').paragraph(what).toString();
}
function listSummary(result, task) {
    const filters = [
        task.name === undefined ? undefined : `name ${names(task.name)}`,
        task.state === 'all' ? undefined : `state <code>${task.state}</code>`,
    ].filter((filter) => filter !== undefined);
    const matching = filters.length > 0 ? ` match ${filters.join(' and ')}` : '';
    return new Summary(`Gateway tokens${inProject(result.project)}`)
        .paragraph(`${result.tokens.length} of ${(0,shared_text/* countTokens */.ih)(result.total)}${matching}.`)
        .table('Tokens', result.tokens, ['State', 'Created', 'Created by', 'Revoked'])
        .toString();
}
function cleanupSummary(result, task) {
    const selection = [
        `active tokens ${named(task.name)}`,
        task.olderThan === undefined ? undefined : `older than ${field(task.olderThan.text)}`,
        task.keep > 0 ? `keeping the ${task.keep} newest of each name` : undefined,
        task.keepIds.length > 0 ? `never the ${keptIds(task.keepIds.length)}` : undefined,
    ];
    const selected = `Selected ${selection.filter((part) => part !== undefined).join(', ')}.`;
    const kept = result.kept.map((kept) => ({ ...kept.token, why: whyKept(kept, task.keep) }));
    const notRevoked = result.notRevoked.map(({ token, reason }) => ({ ...token, why: reason }));
    const unknown = result.unknown.map((token) => ({ ...token, why: unknownBecause(result) }));
    const left = `Left active: ${leftBecause(result)}`;
    const heading = `Gateway token cleanup${task.dryRun ? ' (dry run)' : ''}`;
    return new Summary(`${heading}${inProject(result.project)}`, result.now)
        .paragraph(selected, cleanupOutcome(result, task), ageClockNote(result))
        .table('Not revoked', notRevoked, ['Why'], 'each has a warning in the log')
        .table(left, result.left, ['Age'], 'run the cleanup again to revoke them')
        .table('Revoked or not: unknown', unknown, ['Why'], 'each has a warning in the log')
        .table(task.dryRun ? 'Would revoke' : 'Revoked', result.revoked, ['Age', 'Created by'])
        .table('Revoked by someone else meanwhile', result.revokedElsewhere, ['Revoked', 'By'])
        .table('Kept', kept, ['Age', 'Why'], 'the log says how many were kept')
        .toString();
}
function auditSummary(result, task) {
    const limit = `Active tokens ${named(task.name)}, older than ${field(task.olderThan.text)}.`;
    const undated = result.undated.map((token) => ({ ...token, why: UNDATED }));
    return new Summary(`Gateway token audit${inProject(result.project)}`, result.now)
        .paragraph(limit, auditOutcome(result, task), ageClockNote(result))
        .table(`Older than ${field(task.olderThan.text)}`, result.findings, ['Age', 'Created by'])
        .table('Age unknown', undated, ['Created', 'Why'], 'each has a warning in the log')
        .toString();
}
function inProject(project) {
    if (project === undefined)
        return '';
    return project === 'several' ? ': several projects' : `: project ${code(project.id)}`;
}
const keptIds = (count) => `${count === 1 ? 'token id' : `${count} token ids`} in keepIds`;
const named = (filters) => filters === undefined ? 'of any name' : `named ${names(filters)}`;
const names = (filters) => filters.map(code).join(', ');
const describeToken = (token) => `gateway token <strong>${CELLS.Name(token)}</strong> (${code(token.id)})`;
const code = (value) => `<code>${field(value)}</code>`;
function date(iso) {
    if (iso === undefined)
        return '';
    const time = (0,shared_records/* readTimestamp */.L2)(iso);
    if (time === undefined)
        return field(iso);
    return new Date(time).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}
const field = (value) => escapeMarkdown((0,shared_text/* truncate */.xv)((0,shared_text/* oneLine */.TN)(value), FIELD_CHARACTERS));
class Summary {
    text = '';
    bytes = 0;
    now;
    constructor(heading, now = 0) {
        this.now = now;
        this.paragraph(`### ${heading}`);
    }
    paragraph(...sentences) {
        const markdown = sentences.filter((sentence) => sentence !== undefined).join(' ');
        if (this.add(`${markdown}\n\n`))
            return this;
        const cut = cutMarkdown(markdown, SUMMARY_LIMIT_BYTES - 1 - RESERVE_BYTES - this.bytes - 2);
        if (cut !== undefined)
            this.add(`${cut}\n\n`);
        return this;
    }
    table(heading, rows, columns, whereAll = ALL_IN_TOKENS_FILE) {
        if (rows.length === 0)
            return this;
        const all = ['Name', 'Id', ...columns];
        const line = (row) => `| ${all.map((column) => CELLS[column](row, this.now)).join(' | ')} |\n`;
        let shown = 0;
        if (this.add(`#### ${heading}\n\n| ${all.join(' | ')} |\n|${' --- |'.repeat(all.length)}\n`))
            for (const row of rows) {
                if (!this.add(line(row), RESERVE_BYTES))
                    break;
                shown++;
            }
        const omitted = rows.length - shown;
        if (omitted > 0)
            this.add(`\n${omitted} more not shown: a step summary must stay under ${(0,shared_text/* formatBytes */.z3)(SUMMARY_LIMIT_BYTES)}; ${whereAll}.\n`);
        this.add('\n');
        return this;
    }
    toString() {
        return this.text;
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

;// CONCATENATED MODULE: external "node:crypto"
const external_node_crypto_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __nccwpck_require__(24);
;// CONCATENATED MODULE: external "node:path"
const external_node_path_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");
;// CONCATENATED MODULE: ./src/shared/token-files.ts



const TOKEN_FILE_NAME = /^gateway-token-[0-9a-f]{32}$/;
const randomName = (prefix, suffix = '') => `${prefix}${(0,external_node_crypto_namespaceObject.randomBytes)(16).toString('hex')}${suffix}`;
function newTokenFilePath(dir) {
    return (0,external_node_path_namespaceObject.join)((0,external_node_path_namespaceObject.resolve)(dir), randomName('gateway-token-'));
}
function writeTokenFile(path, value) {
    const fd = (0,external_node_fs_.openSync)(path, 'wx', 0o600);
    try {
        (0,external_node_fs_.fchmodSync)(fd, 0o600);
        (0,external_node_fs_.writeFileSync)(fd, value);
    }
    finally {
        (0,external_node_fs_.closeSync)(fd);
    }
    return path;
}
function writeTokensFile(dir, json) {
    return writeTokenFile((0,external_node_path_namespaceObject.join)((0,external_node_path_namespaceObject.resolve)(dir), randomName('gateway-tokens-', '.json')), json);
}
function removeTokenFile(path, dir) {
    if (!TOKEN_FILE_NAME.test(basename(path)) || path !== join(resolve(dir), basename(path)))
        throw new Error(`it is not a token file of this action in ${resolve(dir)}.`);
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
    const markdown = writeOut(outcome, options, runner);
    if (!options.summary)
        return;
    await runner.writeSummary(markdown).catch((error) => {
        runner.warning(`Could not write the job summary: ${(0,errors/* messageOf */.bD)(error)}`);
    });
}
function writeOut(outcome, options, runner) {
    switch (outcome.operation) {
        case 'create':
            writeCreate(outcome, options, runner);
            return createSummary(outcome.result, outcome.task);
        case 'list':
            runner.info(`${outcome.result.tokens.length} of ${(0,shared_text/* countTokens */.ih)(outcome.result.total)} match.`);
            listOutputs(runner, outcome.result.tokens);
            return listSummary(outcome.result, outcome.task);
        case 'revoke': {
            const { token, alreadyRevoked } = outcome.result;
            const when = token.revokedAt ? ` at ${(0,shared_text/* oneLine */.TN)(token.revokedAt)}` : '';
            if (alreadyRevoked)
                runner.notice(`The ${(0,shared_records/* tokenLabel */.Sk)(token)} was already revoked${when}; nothing to do.`);
            else
                runner.info(`Revoked ${(0,shared_records/* tokenLabel */.Sk)(token)}.`);
            recordOutputs(runner, token);
            for (const field of ['revokedAt', 'revokedBy'])
                runner.setOutput(field, token[field] ?? '');
            return revokeSummary(outcome.result);
        }
        case 'cleanup':
            writeCleanup(outcome, runner);
            return cleanupSummary(outcome.result, outcome.task);
        case 'audit':
            writeAudit(outcome, runner);
            return auditSummary(outcome.result, outcome.task);
    }
}
function writeCreate({ task, result }, options, runner) {
    const { token, reused } = result;
    const value = token.tokenValue ?? '';
    const bytes = Buffer.byteLength(value);
    if (bytes > MAX_OUTPUT_BYTES)
        throw new errors/* ActionError */.lZ(`the token value is ${bytes} bytes, over the runner's limit of ${(0,shared_text/* formatBytes */.z3)(MAX_OUTPUT_BYTES)} for one output (tokenValue).`);
    if (task.envName !== undefined && bytes > MAX_ENV_VALUE_BYTES)
        throw new errors/* ActionError */.lZ(`the token value is ${bytes} bytes, too large for an environment variable (envName ${task.envName}: at most ${MAX_ENV_VALUE_BYTES} bytes, or later steps and the post step cannot start). Use writeTokenFile: true and read the value from the file.`);
    runner.info(reused
        ? `Reused the ${(0,shared_records/* tokenLabel */.Sk)(token)}, created ${(0,shared_text/* oneLine */.TN)(token.createdAt ?? 'at an unknown time')}.`
        : `Created ${(0,shared_records/* tokenLabel */.Sk)(token)}.`);
    const exit = revokeOnExitNote(task.revokeOnExit, reused);
    if (exit !== undefined)
        runner.info(exit);
    if (reused && task.revokeOnExit !== 'never')
        runner.info('revokeOnExit does not apply: the token was reused, not created by this step.');
    recordOutputs(runner, token);
    runner.setOutput('tokenValue', value);
    runner.setOutput('reused', String(reused));
    runner.setOutput('tokenFile', task.writeTokenFile ? tokenFile(value, options, runner) : '');
    if (task.envName) {
        runner.exportVariable(task.envName, value);
        runner.info(`The token value is in the environment variable ${task.envName} for later steps (masked).`);
    }
}
function writeAgeClock(result, runner) {
    const clock = ageClockNote(result);
    if (clock !== undefined)
        runner[result.ages.by === 'runner' ? 'info' : 'warning'](clock);
}
function old(token, now) {
    const age = ageOf(token, now);
    return age === undefined ? '' : `, ${age} old`;
}
function writeCleanup({ task, result }, runner) {
    writeAgeClock(result, runner);
    for (const kept of result.kept)
        if (kept.why === 'keep' || kept.why === 'keepIds')
            runner.info(`Kept ${(0,shared_records/* tokenLabel */.Sk)(kept.token)}${old(kept.token, result.now)}: ${whyKept(kept, task.keep)}.`);
        else if (kept.why === 'unreadable name')
            runner.warning(`Token ${(0,shared_records/* nameAndId */.wW)(kept.token)} is not revoked: ${KEPT_NAMELESS}. Revoke it by its id (operation: revoke) if nothing uses it.`);
        else
            runner.warning(`${ageUnknown(kept.token)}, so it is not revoked.`);
    const verb = task.dryRun ? 'Would revoke' : 'Revoked';
    for (const token of result.revoked)
        runner.info(`${verb} ${(0,shared_records/* tokenLabel */.Sk)(token)}${old(token, result.now)}.`);
    for (const token of result.revokedElsewhere)
        runner.info(`The ${(0,shared_records/* tokenLabel */.Sk)(token)} ${revokedElsewhereNote(token)}.`);
    for (const { token, reason } of result.notRevoked)
        runner.warning(`Could not revoke ${(0,shared_records/* tokenLabel */.Sk)(token)}: ${reason}`);
    for (const token of result.unknown)
        runner.warning(`The ${(0,shared_records/* tokenLabel */.Sk)(token)} ${unknownBecause(result)}.`);
    runner.info(`${cleanupOutcome(result, task)} Kept ${result.kept.length}.`);
    listOutputs(runner, allRevoked(result));
}
function writeAudit({ task, result }, runner) {
    writeAgeClock(result, runner);
    for (const token of result.findings)
        runner.info(`Older than ${task.olderThan.text}: ${(0,shared_records/* tokenLabel */.Sk)(token)}${old(token, result.now)}.`);
    for (const token of result.undated)
        runner.warning(`${ageUnknown(token)}, so this audit cannot tell whether it is older than ${task.olderThan.text}. Check it on the platform.`);
    runner.info(auditOutcome(result, task));
    listOutputs(runner, result.findings);
}
function recordOutputs(runner, token) {
    runner.setOutput('tokenId', token.id);
    for (const field of ['name', 'mediatorId', 'projectId', 'state', 'createdAt'])
        runner.setOutput(field, token[field] ?? '');
    runner.setOutput('token', (0,shared_records/* publicJson */.k6)(token));
}
function tokenFile(value, { postState }, runner) {
    const path = newTokenFilePath(runner.tempDir());
    postState.tokenFile(path);
    return (0,errors/* toFile */.eZ)(`the token value to ${path} (writeTokenFile)`, () => writeTokenFile(path, value));
}
function listOutputs(runner, tokens) {
    const json = (0,shared_records/* publicJson */.k6)(tokens);
    const bytes = Buffer.byteLength(json);
    runner.setOutput('count', String(tokens.length));
    runner.setOutput('tokens', bytes <= MAX_OUTPUT_BYTES ? json : '');
    const dir = runner.tempDir();
    const path = (0,errors/* toFile */.eZ)(`the records to a file in ${dir} (tokensFile)`, () => writeTokensFile(dir, json));
    runner.setOutput('tokensFile', path);
    if (bytes > MAX_OUTPUT_BYTES)
        runner.warning(`The tokens output would be ${bytes} bytes, over the runner's ${(0,shared_text/* formatBytes */.z3)(MAX_OUTPUT_BYTES)} limit for one output: it is left empty; read tokensFile (${path}) instead.`);
}

// EXTERNAL MODULE: ./src/runner/start.ts
var start = __nccwpck_require__(826);
;// CONCATENATED MODULE: ./src/shared/secrets.ts

const SECRET_FIELD = /^(?:access_token|accessToken|refresh_token|refreshToken|id_token|secret|clientSecret|tokenValue)$/;
const PIECE_LENGTH = 8;
const MAX_PIECED = 16 * 1024;
class Secrets {
    mask;
    values = new Set();
    sent = new Set();
    pieces = new Set();
    lengths = [];
    longestFirst;
    constructor(mask) {
        this.mask = mask;
    }
    add(value, kind = 'sent') {
        if (value === undefined)
            return;
        for (const part of [value, ...value.split(/\r\n|\r|\n/)]) {
            if (part.trim() === '' || this.values.has(part))
                continue;
            this.mask(part);
            this.values.add(part);
            this.longestFirst = undefined;
        }
        if (kind === 'received' || this.sent.has(value))
            return;
        this.sent.add(value);
        const { kept } = compact(value.slice(0, MAX_PIECED));
        const length = Math.min(PIECE_LENGTH, kept.length);
        if (length === 0)
            return;
        for (let i = 0; i + length <= kept.length; i++)
            this.pieces.add(kept.slice(i, i + length));
        this.lengths = [...new Set([...this.lengths, length])].sort((a, b) => b - a);
    }
    addFrom(json) {
        const pending = [json];
        for (const value of pending) {
            if (typeof value !== 'object' || value === null)
                continue;
            const fields = value;
            for (const key in fields) {
                const field = fields[key];
                if (typeof field === 'object')
                    pending.push(field);
                else if (typeof field === 'string' && SECRET_FIELD.test(key))
                    this.add(field, 'received');
            }
        }
    }
    scrub(text) {
        if (this.values.size === 0)
            return text;
        const exact = this.removeWhole(text);
        const decoded = secrets_unescape(exact);
        const hidden = decoded === exact ? decoded : this.hide(decoded);
        return hidden === decoded ? this.hide(exact) : hidden;
    }
    removeWhole(text) {
        this.longestFirst ??= [...this.values].sort((a, b) => b.length - a.length);
        return this.longestFirst.reduce((result, value) => result.replaceAll(value, '***'), text);
    }
    hide(text) {
        const whole = this.removeWhole(text);
        const shortest = this.lengths.at(-1);
        if (shortest === undefined)
            return whole;
        const holdsPiece = (bytes) => bytes.length >= shortest &&
            [bytes.toString('latin1'), bytes.toString('utf8')].some((t) => this.removePieces(t) !== t);
        return this.removePieces(whole)
            .replace(HEX_RUN, (run) => (holdsPiece(Buffer.from(hexDigits(run), 'hex')) ? '***' : run))
            .replace(BASE64_RUN, (run) => (holdsPiece(Buffer.from(run, 'base64')) ? '***' : run));
    }
    removePieces(text) {
        const { kept, from } = compact(text);
        let result = '';
        let end = -1;
        for (let i = 0; i < kept.length; i++) {
            const n = this.lengths.find((n) => i + n <= kept.length && this.pieces.has(kept.slice(i, i + n)));
            if (n === undefined)
                continue;
            const start = from[i] ?? 0;
            if (start > end)
                result += `${text.slice(Math.max(end, 0), start)}***`;
            end = Math.max(end, (from[i + n - 1] ?? 0) + 1);
        }
        return end < 0 ? text : result + text.slice(end);
    }
}
const IGNORED = (0,shared_text/* lazyRegExp */.eN)(() => /[\s+\p{Cf}\p{Default_Ignorable_Code_Point}]/u);
function compact(text) {
    const ignored = (0,shared_text/* isAscii */.ER)(text) ? /[\s+]/ : IGNORED();
    const from = [];
    for (let i = 0; i < text.length; i++)
        if (!ignored.test(text.charAt(i)))
            from.push(i);
    return { kept: from.map((i) => text.charAt(i)).join(''), from };
}
const BASE64_RUN = /[\w+/-]+={0,2}/g;
const HEX_RUN = /(?:\\x|(?<!\w)(?:0x)?)[0-9a-f]{2}(?:[:,-]?\s?(?:0x|\\x)?[0-9a-f]{2})*(?!\w)/gi;
const hexDigits = (run) => run.replace(/[0\\]x|[^0-9a-f]/gi, '');
const HTML_REFERENCE = /&#(\d{1,7});|&#x([0-9a-f]{1,6});|&(amp|lt|gt|quot|apos);/gi;
const NAMED = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function secrets_unescape(text) {
    return text
        .replace(/\\(?:u([0-9a-f]{4})|(["\\/]))/gi, (_, hex, char) => hex === undefined ? char : String.fromCharCode(parseInt(hex, 16)))
        .replace(HTML_REFERENCE, (match, dec, hex, name) => {
        if (typeof name === 'string')
            return NAMED[name.toLowerCase()] ?? match;
        const code = dec !== undefined ? Number(dec) : parseInt(String(hex), 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : match;
    })
        .replace(/[^\s"'<>&=?]+/g, (word) => (/%[0-9a-f]{2}/i.test(word) ? decodeWord(word) : word));
}
function decodeWord(word) {
    return word.replace(/\+/g, ' ').replace(/(?:%[0-9a-f]{2})+/gi, (escapes) => {
        try {
            return decodeURIComponent(escapes);
        }
        catch {
            return escapes.replace(/%[0-7][0-9a-f]/gi, (one) => decodeURIComponent(one));
        }
    });
}

;// CONCATENATED MODULE: ./src/main.ts











async function run(runner, clock = time/* systemClock */.ml, handOn) {
    const secrets = new Secrets(runner.setSecret);
    let operation;
    try {
        const inputs = readInputs((name) => runner.getInput(name), secrets, runner.inputNames());
        const { task, expectedProjectId } = inputs;
        operation = task.operation;
        for (const warning of inputs.warnings)
            runner.warning(warning);
        const { client, deadline, close } = (0,start/* connect */.Ng)(runner, inputs.connection, secrets, clock);
        try {
            const api = expectedProjectId ? new ProjectGuard(client, expectedProjectId) : client;
            const postState = new PostState(runner);
            const context = { clock, log: runner, deadline, record: postState.create };
            const outcome = await perform(api, task, context);
            try {
                await report(outcome, { summary: inputs.summary, postState }, runner);
                handOn?.(outcome);
            }
            catch (error) {
                if (outcome.operation !== 'create')
                    throw error;
                throw await handOnFailed(api, outcome.result, error);
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
        return { failed: true, error };
    }
    return {};
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

/***/ 55:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $6: () => (/* binding */ readCreated),
/* harmony export */   Jw: () => (/* binding */ NOT_JSON),
/* harmony export */   LD: () => (/* binding */ readList),
/* harmony export */   UX: () => (/* binding */ jsonRequest),
/* harmony export */   ZP: () => (/* binding */ TOKENS_PATH),
/* harmony export */   ZY: () => (/* binding */ readRevoked),
/* harmony export */   g5: () => (/* binding */ revokePath),
/* harmony export */   gW: () => (/* binding */ authEndpoint),
/* harmony export */   lx: () => (/* binding */ AUTH_PATH),
/* harmony export */   o3: () => (/* binding */ readAccessToken),
/* harmony export */   qF: () => (/* binding */ parseJson),
/* harmony export */   uA: () => (/* binding */ requestLine)
/* harmony export */ });
/* harmony import */ var _shared_records_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(443);
/* harmony import */ var _http_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(165);
/* harmony import */ var _shared_errors_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(382);
/* harmony import */ var _shared_text_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(646);




const AUTH_PATH = '/idp/identity/resources/auth/v2/api-token';
function authEndpoint(authUrl) {
    return authUrl.endsWith('/api-token') ? authUrl : authUrl + AUTH_PATH;
}
const TOKENS_PATH = '/api/tokens';
function revokePath(tokenId) {
    if (!(0,_shared_records_js__WEBPACK_IMPORTED_MODULE_0__/* .isUuid */ .O1)(tokenId))
        throw new _shared_errors_js__WEBPACK_IMPORTED_MODULE_2__/* .RequestError */ .GI(`the token id ${(0,_shared_text_js__WEBPACK_IMPORTED_MODULE_3__/* .quote */ .hD)(tokenId)} is not a UUID, so it was not sent in a URL; nothing was revoked.`);
    return `${TOKENS_PATH}/${tokenId}/revoke?tokenId=${tokenId}`;
}
function jsonRequest(method, url, body) {
    const headers = { Accept: 'application/json', 'User-Agent': _http_js__WEBPACK_IMPORTED_MODULE_1__/* .USER_AGENT */ ._O };
    if (body === undefined)
        return { method, url, headers };
    return { method, url, headers: { ...headers, 'Content-Type': 'application/json' }, body };
}
function requestLine(request) {
    return `${request.method} ${request.url}`;
}
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
function unusable(request, answer, what) {
    return new _shared_errors_js__WEBPACK_IMPORTED_MODULE_2__/* .RequestError */ .GI(`${requestLine(request)} answered ${answer.status}${what}`, answer.status);
}
function readRecord(request, answer, value, where) {
    const record = (0,_shared_records_js__WEBPACK_IMPORTED_MODULE_0__/* .toRecord */ .Lv)(value);
    if (typeof record === 'string')
        throw unusable(request, answer, ` but ${where} is ${record}.`);
    return record;
}
function readRevoked(request, answer, tokenId) {
    const record = readRecord(request, answer, readJson(request, answer), 'the body');
    if (!(0,_shared_records_js__WEBPACK_IMPORTED_MODULE_0__/* .sameId */ .s)(record.id, tokenId))
        throw unusable(request, answer, ` with the record of another token, ${(0,_shared_records_js__WEBPACK_IMPORTED_MODULE_0__/* .nameAndId */ .wW)(record)}.`);
    if (record.state !== 'revoked') {
        const state = (0,_shared_text_js__WEBPACK_IMPORTED_MODULE_3__/* .quote */ .hD)(record.state, 40);
        throw unusable(request, answer, ` with the token in state ${state}, not revoked.`);
    }
    return record;
}
function readCreated(request, answer) {
    const record = readRecord(request, answer, readJson(request, answer), 'the body');
    if (!(0,_shared_records_js__WEBPACK_IMPORTED_MODULE_0__/* .isUuid */ .O1)(record.id)) {
        const what = ` but the new token's id ${(0,_shared_text_js__WEBPACK_IMPORTED_MODULE_3__/* .quote */ .hD)(record.id)} is not a UUID, so the action cannot use it; look for the token with operation: list.`;
        throw unusable(request, answer, what);
    }
    if (record.tokenValue === undefined) {
        const what = ` but the new token ${record.id} has no tokenValue; revoke it and try again.`;
        throw unusable(request, answer, what);
    }
    return record;
}
function readList(request, answer) {
    const body = readJson(request, answer);
    if (!Array.isArray(body))
        throw unusable(request, answer, ' but the body is not a list of tokens.');
    const records = body.map((item, index) => readRecord(request, answer, item, `item ${index} of the list`));
    return (0,_shared_records_js__WEBPACK_IMPORTED_MODULE_0__/* .uniqueById */ .ar)(records);
}
function readAccessToken(request, answer, now) {
    const fields = (readJson(request, answer, 'auth') ?? {});
    const value = typeof fields.access_token === 'string' ? fields.access_token : fields.accessToken;
    if (typeof value !== 'string' || value === '')
        throw unusable(request, answer, ' without an access_token.');
    if (!HEADER_SAFE.test(value)) {
        const what = ' but its access_token cannot be sent as a header value: it holds characters other than visible ASCII.';
        throw unusable(request, answer, what);
    }
    const lifetime = typeof fields.expires_in === 'number' ? fields.expires_in * 1000 : 0;
    const renewAt = lifetime > 0 ? now + lifetime - Math.min(60_000, lifetime / 10) : undefined;
    return { value, renewAt };
}
function readJson(request, answer, target = 'api') {
    if (answer.json !== NOT_JSON)
        return answer.json;
    const page = /html/i.test(answer.headers['content-type'] ?? '') ? 'a web page' : 'a body';
    const { origin, pathname } = new URL(request.url);
    const hint = target === 'auth'
        ? ` Check the authUrl input: the action posts the credentials to ${origin}${pathname}, which must be the auth service's token endpoint (authUrl plus ${AUTH_PATH}, or authUrl itself when it ends in /api-token).`
        : ` Check the baseUrl input (${origin}${pathname.slice(0, pathname.lastIndexOf(TOKENS_PATH))}): the action adds ${TOKENS_PATH} to it, so it must be the REST API's base URL, not the web app's.`;
    throw unusable(request, answer, ` with ${page} that is not JSON.${hint}`);
}


/***/ }),

/***/ 91:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  Ht: () => (/* binding */ PlatformClient),
  LO: () => (/* binding */ settleRefusals)
});

// UNUSED EXPORTS: Session

// EXTERNAL MODULE: ./src/shared/errors.ts
var errors = __nccwpck_require__(382);
// EXTERNAL MODULE: ./src/shared/records.ts
var records = __nccwpck_require__(443);
// EXTERNAL MODULE: ./src/shared/time.ts + 1 modules
var time = __nccwpck_require__(877);
// EXTERNAL MODULE: ./src/shared/text.ts
var shared_text = __nccwpck_require__(646);
// EXTERNAL MODULE: ./src/platform/api.ts
var api = __nccwpck_require__(55);
// EXTERNAL MODULE: ./src/platform/http.ts + 3 modules
var http = __nccwpck_require__(165);
// EXTERNAL MODULE: ./src/platform/failures.ts
var failures = __nccwpck_require__(640);
;// CONCATENATED MODULE: ./src/platform/call-loop.ts







const MAYBE = ' It may have taken effect all the same.';
class CallLoop {
    options;
    platformOffset;
    transport;
    constructor(options) {
        this.options = options;
        this.transport = options.transport ?? new http/* HttpTransport */.G5();
    }
    platformTime(at) {
        return this.platformOffset === undefined ? undefined : at + this.platformOffset;
    }
    close() {
        this.transport.close();
    }
    async call(target, request, options) {
        const { retries, deadline, secrets, log, timeoutMs, accessTokens } = this.options;
        const attempts = retries + 1;
        let renewed = false;
        for (let attempt = (options.pooled?.attemptsUsed ?? 0) + 1;; attempt++) {
            if (deadline.expired())
                throw notSent(deadline, request);
            const { outcome, accessToken } = await this.attempt(target, request, options.onWritten);
            const answer = outcome instanceof http/* TransportError */.wX ? undefined : outcome;
            if (answer?.status === 401 && accessToken !== undefined && !renewed) {
                renewed = true;
                log.info(`${(0,api/* requestLine */.uA)(request)} answered 401: authenticating again.`);
                await accessTokens.reject(accessToken);
                attempt--;
                continue;
            }
            if (answer !== undefined && isSuccess(target, answer.status)) {
                try {
                    return options.read(answer);
                }
                catch (error) {
                    if (!(error instanceof errors/* RequestError */.GI))
                        throw error;
                    const found = await options.onUncertain?.(error.message.replace(/\.$/, ''));
                    if (found !== undefined)
                        return found;
                    throw error;
                }
            }
            const transient = (0,failures/* isTransient */.dg)(outcome);
            const retrying = transient && attempt < attempts;
            const numbered = attempts > 1 && transient ? `attempt ${attempt} of ${attempts}` : '';
            const scrub = (text) => secrets.scrub(text);
            const failure = (0,failures/* describeFailure */.Ic)(request, outcome, { renewed, attempt: numbered }, scrub);
            if (retrying)
                await this.waitToRetry(failure, outcome, attempt, options.pooled !== undefined);
            const found = (0,failures/* mayHaveTakenEffect */.Y2)(outcome) ? await options.onUncertain?.(failure) : undefined;
            if (found !== undefined)
                return found;
            if (retrying)
                continue;
            const hint = outcome instanceof http/* TransportError */.wX
                ? (0,failures/* transportHint */.bA)(outcome, target, request.url, timeoutMs)
                : target === 'api' && outcome.status === 404
                    ? (0,failures/* apiPathHint */.F6)(request)
                    : '';
            throw new errors/* RequestError */.GI((0,shared_text/* asSentence */.KG)(failure) + hint, answer?.status, transient);
        }
    }
    async waitToRetry(failure, outcome, attempt, pooled) {
        const { clock, deadline, log, retries } = this.options;
        const answer = outcome instanceof http/* TransportError */.wX ? undefined : outcome;
        const told = answer && (0,failures/* retryAfterDelay */.WO)(answer.headers, clock.now());
        const delay = told ?? (0,failures/* backoffDelay */.EY)(attempt, clock.jitter());
        if (answer?.status === 429 && pooled) {
            const waitMs = Math.max(delay, attempt > 1 ? (0,failures/* backoffDelay */.EY)(attempt - 1, clock.jitter()) : 0);
            const guessed = told === undefined && attempt === 1;
            const throttle = { waitMs, attemptsUsed: attempt, guessed, last: attempt === retries };
            throw new errors/* ThrottledError */.Xe((0,shared_text/* asSentence */.KG)(failure), throttle);
        }
        const seconds = `${(delay / 1000).toFixed(1)} s`;
        if (delay >= deadline.remaining()) {
            const maybe = (0,failures/* mayHaveTakenEffect */.Y2)(outcome);
            const cause = deadline.cause();
            const why = cause.by === 'cancel'
                ? `the step was cancelled (${cause.signal}), so it was not tried again`
                : `${deadline.describe()} leaves no time to wait ${seconds} and try again`;
            throw new errors/* DeadlineError */.j3(`${failure}; ${why}.${maybe ? MAYBE : ''}`, answer?.status, maybe);
        }
        log.info(`${failure}; retrying in ${seconds}.`);
        await clock.sleep(delay, deadline.stopSignal);
    }
    async attempt(target, request, onWritten) {
        const { clock, secrets, log, deadline, accessTokens } = this.options;
        const { transport } = this;
        const accessToken = target === 'api' ? await accessTokens.accessToken() : undefined;
        if (accessToken !== undefined)
            secrets.add(accessToken, 'sent');
        const bearer = accessToken === undefined ? {} : { Authorization: `Bearer ${accessToken}` };
        const sent = { ...request, headers: { ...request.headers, ...bearer } };
        if (deadline.expired())
            throw notSent(deadline, request);
        const timeoutMs = Math.min(this.options.timeoutMs, deadline.remaining());
        const started = clock.now();
        let outcome;
        try {
            const response = await transport.send(target, sent, timeoutMs, deadline.cutSignal, onWritten);
            const json = (0,api/* parseJson */.qF)(response.body);
            secrets.addFrom(json);
            const read = json !== api/* NOT_JSON */.Jw && isSuccess(target, response.status);
            outcome = { ...response, body: read ? '' : response.body, json };
            const date = Date.parse(response.headers.date ?? '');
            if (target === 'api' && !Number.isNaN(date))
                this.platformOffset = date + 500 - clock.now();
        }
        catch (error) {
            if (!(error instanceof http/* TransportError */.wX))
                throw error;
            outcome = error;
        }
        const result = outcome instanceof http/* TransportError */.wX ? outcome.code : outcome.status;
        log.debug(`${(0,api/* requestLine */.uA)(request)} -> ${result} in ${clock.now() - started} ms`);
        const shortened = timeoutMs < this.options.timeoutMs;
        if (outcome instanceof http/* TransportError */.wX &&
            ((outcome.code === 'ETIMEDOUT' && shortened) || outcome.code === http/* CUT_OFF */.Vk)) {
            const { requestSent } = outcome;
            const waited = `while ${(0,api/* requestLine */.uA)(request)} waited for an answer.${requestSent ? MAYBE : ''}`;
            throw new errors/* DeadlineError */.j3(`${(0,time/* stopped */.ce)(deadline.cause())} ${waited}`, undefined, requestSent);
        }
        return { outcome, accessToken };
    }
}
function isSuccess(target, status) {
    return target === 'auth' ? status === 200 : status >= 200 && status <= 299;
}
function notSent(deadline, request) {
    return new errors/* DeadlineError */.j3(`${(0,time/* stopped */.ce)(deadline.cause())} before ${(0,api/* requestLine */.uA)(request)} was sent.`);
}

// EXTERNAL MODULE: ./src/platform/create-life.ts
var create_life = __nccwpck_require__(50);
;// CONCATENATED MODULE: ./src/platform/client.ts








class PlatformClient {
    options;
    loop;
    constructor(options) {
        this.options = options;
        this.loop = new CallLoop({
            ...options,
            accessTokens: new Session(() => this.authenticate(), options.clock),
        });
    }
    async createToken(name, { when = 'never', record } = {}) {
        const body = JSON.stringify({ name });
        const request = (0,api/* jsonRequest */.UX)('POST', this.options.baseUrl + api/* TOKENS_PATH */.ZP, body);
        const create = new create_life/* CreateLife */.NT(name, when, {
            clock: this.options.clock,
            log: this.options.log,
            list: () => this.listTokens(),
            revoke: (tokenId) => this.revokeToken(tokenId),
            platformTime: this.platformTime,
            record: record ?? (() => undefined),
        });
        try {
            const token = await this.loop.call('api', request, {
                read: (answer) => (0,api/* readCreated */.$6)(request, answer),
                onWritten: create.written,
                onUncertain: (failure) => create.afterLostAnswer(failure),
            });
            return await create.accept(token, (0,api/* requestLine */.uA)(request));
        }
        catch (error) {
            create.failed(error);
            throw error;
        }
    }
    listTokens() {
        const request = (0,api/* jsonRequest */.UX)('GET', this.options.baseUrl + api/* TOKENS_PATH */.ZP);
        return this.loop.call('api', request, { read: (answer) => (0,api/* readList */.LD)(request, answer) });
    }
    async revokeToken(tokenId, options = {}) {
        const request = (0,api/* jsonRequest */.UX)('POST', this.options.baseUrl + (0,api/* revokePath */.g5)(tokenId));
        let mayHaveRevoked = false;
        try {
            const token = await this.loop.call('api', request, {
                read: (answer) => (0,api/* readRevoked */.ZY)(request, answer, tokenId),
                onUncertain: () => {
                    mayHaveRevoked = true;
                    return Promise.resolve(undefined);
                },
                ...(options.pooled && { pooled: options.pooled }),
            });
            return { token, alreadyRevoked: false };
        }
        catch (error) {
            if (!(error instanceof errors/* RequestError */.GI) || error instanceof errors/* AuthenticationError */.v3)
                throw error;
            const status = error.status ?? 0;
            if (status === 401 || !((0,errors/* isRefusal */.vu)(status) || isSuccess('api', status)))
                throw error;
            const unsettled = new errors/* UnsettledRevokeError */.V0(error, mayHaveRevoked);
            if (options.settle === 'later')
                throw unsettled;
            const list = () => this.listTokens();
            const [settled = { error }] = await settleRefusals(list, [{ tokenId, unsettled }]);
            if ('error' in settled)
                throw settled.error;
            return settled;
        }
    }
    close() {
        this.loop.close();
    }
    platformTime = (at) => this.loop.platformTime(at);
    async authenticate() {
        const { clientId, clientSecret: secret, authUrl } = this.options;
        const endpoint = (0,api/* authEndpoint */.gW)(authUrl);
        const request = (0,api/* jsonRequest */.UX)('POST', endpoint, JSON.stringify({ clientId, secret }));
        try {
            return await this.loop.call('auth', request, {
                read: (answer) => (0,api/* readAccessToken */.o3)(request, answer, this.options.clock.now()),
            });
        }
        catch (error) {
            if (!(error instanceof errors/* RequestError */.GI))
                throw error;
            const { status, message } = error;
            const detail = status === 404 || status === 405
                ? `failed: ${message} ${(0,failures/* authPathHint */.R8)(endpoint)}`
                : (0,errors/* isRefusal */.vu)(status)
                    ? `was refused: ${message} Check the clientId and clientSecret inputs. ${errors/* FORK_HINT */.DS}`
                    : `failed: ${message}`;
            throw new errors/* AuthenticationError */.v3(`authentication ${detail}`, status, error.transient);
        }
    }
}
class Session {
    obtain;
    clock;
    pending;
    constructor(obtain, clock) {
        this.obtain = obtain;
        this.clock = clock;
    }
    async accessToken() {
        const current = this.pending;
        const token = await current;
        if (token !== undefined && this.clock.now() < (token.renewAt ?? Infinity))
            return token.value;
        if (this.pending === current || this.pending === undefined) {
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
    const why = ' Whether it was revoked already could not be told: listing the tokens failed too: ';
    const tokens = await list().catch((error) => why + (0,errors/* messageOf */.bD)(error));
    return unsettled.map(({ tokenId, unsettled: { refusal, mayHaveRevoked } }) => {
        const { message, status } = refusal;
        if (typeof tokens === 'string')
            return { error: new errors/* RequestError */.GI(message + tokens, status) };
        const found = (0,records/* findById */.uz)(tokens, tokenId);
        const unknown = `no token with id ${tokenId} exists in the project: ${message}`;
        if (found === undefined)
            return { error: new errors/* UnknownTokenError */.YP(unknown, status) };
        if (found.state === 'revoked')
            return { token: found, alreadyRevoked: !mayHaveRevoked };
        return { error: refusal };
    });
}


/***/ }),

/***/ 50:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   NT: () => (/* binding */ CreateLife),
/* harmony export */   pZ: () => (/* binding */ revokeUnheld)
/* harmony export */ });
/* unused harmony exports CREATE_STATES, LATE_CREATE_MS, createWindow, findCreated, lookForSentence */
/* harmony import */ var _shared_errors_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(382);
/* harmony import */ var _shared_records_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(443);
/* harmony import */ var _shared_text_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(646);




const CREATE_STATES = (/* unused pure expression or super */ null && (['not sent', 'sent', 'created', 'refused', 'unknown']));
async function revokeUnheld(revoke, token) {
    try {
        await revoke(token.id);
        return 'It was revoked at once.';
    }
    catch (error) {
        return `Revoking it at once failed too: ${(0,_shared_text_js__WEBPACK_IMPORTED_MODULE_2__/* .asSentence */ .KG)((0,_shared_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .messageOf */ .bD)(error))} Revoke it with operation: revoke and tokenId: ${(0,_shared_records_js__WEBPACK_IMPORTED_MODULE_1__/* .shortId */ .m_)(token)}.`;
    }
}
class CreateLife {
    record;
    unrecorded;
    context;
    constructor(name, when, context) {
        this.context = context;
        this.record = { name, sentAt: context.clock.now(), state: 'not sent', when };
        context.record({ ...this.record });
    }
    written = () => {
        const state = this.record.state === 'not sent' ? 'sent' : this.record.state;
        this.change({ state, lastInFlightAt: this.context.clock.now() });
    };
    async afterLostAnswer(failure) {
        const { record, context } = this;
        const name = (0,_shared_records_js__WEBPACK_IMPORTED_MODULE_1__/* .quoteName */ .AB)(record.name);
        const fail = (why) => new _shared_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .RequestError */ .GI(`${failure}; ${why}`);
        context.log.info(`${failure}. The token may have been created all the same: checking the list.`);
        const lostEarlier = record.state === 'unknown';
        this.change({ state: 'unknown', lastInFlightAt: context.clock.now() });
        const lookFor = lookForSentence(record, context.platformTime);
        const tokens = await context.list().catch((error) => {
            const unknown = `whether token ${name} was created is unknown, as listing the tokens failed too: ${(0,_shared_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .messageOf */ .bD)(error)} ${lookFor}`;
            throw fail(unknown);
        });
        const created = findCreated(tokens, record, context.platformTime);
        if (created.found === 'none') {
            context.log.info(`No token named ${name} was created: sending the create again.`);
            return undefined;
        }
        if (created.found !== 'one')
            throw fail(created.found === 'several'
                ? `${created.tokens.length} active tokens named ${name} were created since this step began (${created.tokens.map(_shared_records_js__WEBPACK_IMPORTED_MODULE_1__/* .shortId */ .m_).join(', ')}), so which one is this step's cannot be told. Give each job a token name of its own; revoke the tokens you do not need.`
                : `the list shows one active token named ${name}, ${(0,_shared_records_js__WEBPACK_IMPORTED_MODULE_1__/* .shortId */ .m_)(created.token)}, but ${created.why}. It was not taken for this step's. ${lookFor}`);
        const { token } = created;
        if (!(0,_shared_records_js__WEBPACK_IMPORTED_MODULE_1__/* .isUuid */ .O1)(token.id))
            throw fail(`a token named ${name} was created, but its id ${(0,_shared_text_js__WEBPACK_IMPORTED_MODULE_2__/* .quote */ .hD)(token.id, 80)} is not a UUID, so the action cannot use it. Revoke it and run again.`);
        this.change({ state: 'created', id: token.id, lostEarlier });
        if (token.tokenValue === undefined) {
            const why = `token ${token.id} was created, but the platform does not show its value (the answer had none, or a blank one).`;
            throw fail(`${why} ${await revokeUnheld(context.revoke, token)}`);
        }
        const createdAt = (0,_shared_text_js__WEBPACK_IMPORTED_MODULE_2__/* .oneLine */ .TN)(token.createdAt ?? '?');
        context.log.info(`It was: token ${token.id}, created at ${createdAt}, is this step's token.`);
        return token;
    }
    async accept(token, request) {
        const { record, context } = this;
        const lost = record.state === 'unknown' || record.lostEarlier === true;
        if (token.name === record.name && token.state === 'active') {
            this.change({ state: 'created', id: token.id, lostEarlier: lost });
            if (this.unrecorded !== undefined) {
                const error = (0,_shared_text_js__WEBPACK_IMPORTED_MODULE_2__/* .asSentence */ .KG)((0,_shared_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .messageOf */ .bD)(this.unrecorded.error));
                const what = `The value of the new ${(0,_shared_records_js__WEBPACK_IMPORTED_MODULE_1__/* .tokenLabel */ .Sk)(token)} was not handed on.`;
                throw new _shared_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ActionError */ .lZ(`${error} ${what} ${await revokeUnheld(context.revoke, token)}`);
            }
            if (lost && record.when !== 'never')
                context.log.info(`An earlier attempt got no answer: the post step looks for a token it may have made, beside ${(0,_shared_records_js__WEBPACK_IMPORTED_MODULE_1__/* .shortId */ .m_)(token)} (revokeOnExit${record.when === 'failure' ? ': failure, if the job does not succeed' : ''}).`);
            else if (lost)
                context.log.warning(`An earlier attempt of this create got no answer, and the list did not show its token, so the create was sent again. ${lookForSentence(record, context.platformTime)} revokeOnExit: true looks for it at the end of the job.`);
            return token;
        }
        const mismatch = `${request} answered with the token ${(0,_shared_records_js__WEBPACK_IMPORTED_MODULE_1__/* .nameAndId */ .wW)(token)} in state ${(0,_shared_text_js__WEBPACK_IMPORTED_MODULE_2__/* .quote */ .hD)((0,_shared_text_js__WEBPACK_IMPORTED_MODULE_2__/* .oneLine */ .TN)(token.state), 40)}, not an active token named ${(0,_shared_records_js__WEBPACK_IMPORTED_MODULE_1__/* .quoteName */ .AB)(record.name)}: its value was not handed on.`;
        const created = (0,_shared_records_js__WEBPACK_IMPORTED_MODULE_1__/* .createdTime */ .wO)(token);
        const since = createWindow(record, context.platformTime).since;
        if (token.state !== 'active' || (created !== undefined && created < since)) {
            this.change({ state: 'refused', lostEarlier: lost });
            const older = ` It was created before this create was sent, so it may be another's: it was not revoked. Look at it with operation: list.`;
            throw new _shared_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .RequestError */ .GI(token.state === 'active' ? mismatch + older : mismatch);
        }
        this.change({ state: 'created', id: token.id, lostEarlier: lost });
        throw new _shared_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .RequestError */ .GI(`${mismatch} ${await revokeUnheld(context.revoke, token)}`);
    }
    failed(error) {
        const { state } = this.record;
        const status = error instanceof _shared_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .RequestError */ .GI ? error.status : undefined;
        const refused = state !== 'unknown' && ((0,_shared_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .isRefusal */ .vu)(status) || status === 429);
        if (state === 'created')
            return;
        if (refused)
            this.change({ state: 'refused' });
        else if (state === 'sent' || state === 'unknown')
            this.change({ state: 'unknown', lastInFlightAt: this.context.clock.now() });
    }
    change(to) {
        Object.assign(this.record, to);
        try {
            this.context.record({ ...this.record });
        }
        catch (error) {
            this.unrecorded ??= { error };
        }
    }
}
const KNOWN_CLOCK_MARGIN_MS = 2_000;
const UNKNOWN_CLOCK_MARGIN_MS = 60_000;
const LATE_CREATE_MS = 60_000;
function createWindow(create, at) {
    const { sentAt, lastInFlightAt = sentAt } = create;
    const onPlatform = at(sentAt);
    const margin = onPlatform === undefined ? UNKNOWN_CLOCK_MARGIN_MS : KNOWN_CLOCK_MARGIN_MS;
    const ahead = (onPlatform ?? sentAt) - sentAt;
    const until = lastInFlightAt + ahead + LATE_CREATE_MS + margin;
    return { since: sentAt + ahead - margin, until, clockKnown: onPlatform !== undefined };
}
function findCreated(tokens, { name, sentAt, lastInFlightAt, id }, platformTime) {
    const { since, until, clockKnown } = createWindow({ sentAt, lastInFlightAt }, platformTime);
    const candidates = (0,_shared_records_js__WEBPACK_IMPORTED_MODULE_1__/* .newestFirst */ .ll)(tokens.filter((token) => {
        if (token.name !== name || token.state !== 'active')
            return false;
        if (id !== undefined && (0,_shared_records_js__WEBPACK_IMPORTED_MODULE_1__/* .sameId */ .s)(token.id, id))
            return false;
        const created = (0,_shared_records_js__WEBPACK_IMPORTED_MODULE_1__/* .createdTime */ .wO)(token);
        return created === undefined || (created >= since && created <= until);
    }));
    const [only, ...others] = candidates;
    if (only === undefined)
        return { found: 'none' };
    if (others.length > 0)
        return { found: 'several', tokens: candidates };
    const created = (0,_shared_records_js__WEBPACK_IMPORTED_MODULE_1__/* .createdTime */ .wO)(only);
    const why = created === undefined
        ? `its createdAt (${(0,_shared_text_js__WEBPACK_IMPORTED_MODULE_2__/* .quote */ .hD)(only.createdAt ?? '', 40)}) cannot be read, so whether it was made by this step or before it cannot be told`
        : !clockKnown && created < sentAt - KNOWN_CLOCK_MARGIN_MS
            ? `it was created ${Math.round((sentAt - created) / 1000)} s before the create was sent by the runner's clock, and the platform's answers carry no Date header to compare the two clocks with, so it may be another's`
            : undefined;
    return why === undefined ? { found: 'one', token: only } : { found: 'unsure', token: only, why };
}
function lookForSentence({ name, sentAt, id }, platformTime) {
    const since = new Date(createWindow({ sentAt }, platformTime).since).toISOString();
    const other = id === undefined ? '' : ` other than ${(0,_shared_records_js__WEBPACK_IMPORTED_MODULE_1__/* .shortId */ .m_)({ id })}`;
    return `An active token named ${(0,_shared_records_js__WEBPACK_IMPORTED_MODULE_1__/* .quoteName */ .AB)(name)}${other} created after ${since} would be this step's, and nobody has its value: revoke it (operation: revoke, tokenId).`;
}


/***/ }),

/***/ 640:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   EY: () => (/* binding */ backoffDelay),
/* harmony export */   F6: () => (/* binding */ apiPathHint),
/* harmony export */   Ic: () => (/* binding */ describeFailure),
/* harmony export */   R8: () => (/* binding */ authPathHint),
/* harmony export */   WO: () => (/* binding */ retryAfterDelay),
/* harmony export */   Y2: () => (/* binding */ mayHaveTakenEffect),
/* harmony export */   bA: () => (/* binding */ transportHint),
/* harmony export */   dg: () => (/* binding */ isTransient)
/* harmony export */ });
/* unused harmony exports DEFAULT_BACKOFF, describeBody */
/* harmony import */ var _shared_text_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(646);
/* harmony import */ var _api_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(55);
/* harmony import */ var _http_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(165);



const DEFAULT_BACKOFF = { baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };
const TRANSIENT_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
function isTransient(outcome) {
    if (!(outcome instanceof _http_js__WEBPACK_IMPORTED_MODULE_2__/* .TransportError */ .wX))
        return TRANSIENT_STATUSES.has(outcome.status);
    const kind = (0,_http_js__WEBPACK_IMPORTED_MODULE_2__/* .kindOf */ .I)(outcome.code);
    return kind === 'unreachable' || kind === 'lost';
}
function mayHaveTakenEffect(outcome) {
    if (outcome instanceof _http_js__WEBPACK_IMPORTED_MODULE_2__/* .TransportError */ .wX)
        return outcome.requestSent;
    return outcome.status >= 500 || outcome.status === 408;
}
function backoffDelay(retry, jitter, backoff = DEFAULT_BACKOFF) {
    const ceiling = Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** (retry - 1));
    return Math.round(ceiling / 2 + (jitter * ceiling) / 2);
}
function retryAfterDelay(headers, now) {
    const value = headers['retry-after']?.trim() ?? '';
    if (/^\d+(?:\.\d+)?$/.test(value))
        return Math.min(Math.round(Number(value) * 1000), DEFAULT_BACKOFF.maxRetryAfterMs);
    const at = /[a-z]/i.test(value) ? Date.parse(value) : NaN;
    if (Number.isNaN(at))
        return undefined;
    const serverNow = Date.parse(headers.date ?? '');
    const delay = at - (Number.isNaN(serverNow) ? now : serverNow);
    return Math.min(Math.max(0, delay), DEFAULT_BACKOFF.maxRetryAfterMs);
}
const MAX_REASON = 60;
const MAX_DETAIL = 300;
const MAX_BODY = 64 * 1024;
const MAX_DEPTH = 4;
const MAX_PARTS = 16;
const DETAIL_FIELDS = ['error', 'message', 'errors', 'error_description', 'detail'];
function describeBody(body, contentType, scrub) {
    const text = scrub(body.slice(0, MAX_BODY)).trim();
    if (text === '')
        return '';
    if (/html/i.test(contentType ?? '') || /^<(!doctype|html|head|body)\b/i.test(text))
        return 'the body was not JSON (an HTML page)';
    const json = (0,_api_js__WEBPACK_IMPORTED_MODULE_1__/* .parseJson */ .qF)(text);
    if (json === _api_js__WEBPACK_IMPORTED_MODULE_1__/* .NOT_JSON */ .Jw)
        return body.length > MAX_BODY && /^[[{]/.test(text)
            ? `a JSON body of ${body.length} characters, too long to read for its message`
            : shorten(text);
    const keys = typeof json === 'object' && json !== null && !Array.isArray(json) ? Object.keys(json) : [];
    const fields = keys.length > 0 ? ` (fields: ${keys.slice(0, 8).join(', ')})` : '';
    return shorten(scrub(jsonDetail(json) ?? `a JSON body without an error message${fields}`));
}
function jsonDetail(value, depth = 0) {
    if (typeof value === 'string')
        return value;
    if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH)
        return undefined;
    const parts = DETAIL_FIELDS.flatMap((field) => value[field])
        .slice(0, MAX_PARTS)
        .map((part) => jsonDetail(part, depth + 1))
        .filter((part) => part !== undefined && part.trim() !== '');
    return parts.length > 0 ? [...new Set(parts)].join('; ') : undefined;
}
function shorten(text) {
    return (0,_shared_text_js__WEBPACK_IMPORTED_MODULE_0__/* .truncate */ .xv)((0,_shared_text_js__WEBPACK_IMPORTED_MODULE_0__/* .oneLine */ .TN)(text), MAX_DETAIL);
}
function describeFailure(request, outcome, { renewed, attempt }, scrub) {
    if (outcome instanceof _http_js__WEBPACK_IMPORTED_MODULE_2__/* .TransportError */ .wX)
        return `${(0,_api_js__WEBPACK_IMPORTED_MODULE_1__/* .requestLine */ .uA)(request)} got no answer${attempt && ` (${attempt})`}: ${scrub(outcome.message)}`;
    const detail = describeBody(outcome.body, outcome.headers['content-type'], scrub);
    const reason = (0,_shared_text_js__WEBPACK_IMPORTED_MODULE_0__/* .truncate */ .xv)((0,_shared_text_js__WEBPACK_IMPORTED_MODULE_0__/* .oneLine */ .TN)(scrub(outcome.statusText)), MAX_REASON);
    const status = `${outcome.status}${reason ? ` ${reason}` : ''}`;
    const what = detail ? `: ${detail}` : '';
    if (renewed && outcome.status === 401)
        return `the access token was rejected: ${(0,_api_js__WEBPACK_IMPORTED_MODULE_1__/* .requestLine */ .uA)(request)} answered ${status} even after authenticating again${what}`;
    const told = outcome.headers['retry-after']?.trim();
    const wait = told ? `Retry-After: ${(0,_shared_text_js__WEBPACK_IMPORTED_MODULE_0__/* .truncate */ .xv)((0,_shared_text_js__WEBPACK_IMPORTED_MODULE_0__/* .oneLine */ .TN)(scrub(told)), MAX_REASON)}` : '';
    const notes = [attempt, wait].filter((note) => note !== '').join(', ');
    return `${(0,_api_js__WEBPACK_IMPORTED_MODULE_1__/* .requestLine */ .uA)(request)} answered ${status}${notes && ` (${notes})`}${what}`;
}
function transportHint(error, target, url, timeoutMs) {
    const input = target === 'auth' ? 'authUrl' : 'baseUrl';
    const parsed = new URL(url);
    const { host, origin } = parsed;
    const kind = (0,_http_js__WEBPACK_IMPORTED_MODULE_2__/* .kindOf */ .I)(error.code);
    if (error.code === 'ETIMEDOUT')
        return ` The timeout input allows ${timeoutMs / 1000} s per request: raise it if the platform is this slow.`;
    if (kind === 'unreachable')
        return ` Check the ${input} input (${origin}) and that the runner can reach that host: a self-hosted runner may need a firewall rule or a proxy (HTTPS_PROXY, NO_PROXY).`;
    if (error.code === 'EPROXYAUTH')
        return ` Check the user name and password in HTTPS_PROXY (http://user:password@proxy:port, the special characters %-encoded), and that the proxy lets this runner reach ${host}.`;
    if (error.code === 'EPROXY')
        return ` The proxy in HTTPS_PROXY would not open a tunnel to ${host}: check that it allows that host, or list the host in NO_PROXY if the runner reaches it directly.`;
    if (error.code === 'ERR_TLS_CERT_ALTNAME_INVALID')
        return ` Check the ${input} input (${origin}): the host's certificate names other hosts, and TLS checks cannot be turned off.`;
    if (error.code === _http_js__WEBPACK_IMPORTED_MODULE_2__/* .PLAIN_HTTP */ .mY)
        return (0,_shared_text_js__WEBPACK_IMPORTED_MODULE_0__/* .isLoopback */ .U9)(parsed)
            ? ` Check the ${input} input (${origin}): that port speaks plain HTTP, not HTTPS. For a server on this machine, http:// is allowed: http://${parsed.hostname}:${parsed.port || '443'}.`
            : ` Check the ${input} input (${origin}): that port speaks plain HTTP, so it is not the server's HTTPS port. Give the address the server answers HTTPS on (port 443 when the URL names none).`;
    if (kind === 'tls')
        return ` Check the ${input} input (${origin}): the runner could not set up TLS with that server, and trying again would not change that.`;
    if (kind === 'certificate')
        return ` The runner does not trust the certificate of ${host}. If it comes from a private CA, or a proxy that inspects TLS, give the runner that CA: NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment of the job, or in the .env file of a self-hosted runner. TLS checks cannot be turned off.`;
    return '';
}
function authPathHint(endpoint) {
    const tail = _api_js__WEBPACK_IMPORTED_MODULE_1__/* .AUTH_PATH */ .lx.slice(_api_js__WEBPACK_IMPORTED_MODULE_1__/* .AUTH_PATH */ .lx.indexOf('/resources/'));
    return `Check the authUrl input: nothing takes credentials at ${endpoint}. Deployments differ in the path before ${tail} (/idp/identity, /frontegg/identity, /identity): set authUrl to the full endpoint URL, ending in /api-token.`;
}
function apiPathHint(request) {
    const { origin, pathname } = new URL(request.url);
    const at = pathname.lastIndexOf(_api_js__WEBPACK_IMPORTED_MODULE_1__/* .TOKENS_PATH */ .ZP);
    if (at < 0)
        return '';
    const baseUrl = origin + pathname.slice(0, at);
    const repeated = /\/([^/]+)\/\1(?=\/)/.exec(pathname)?.[1];
    if (repeated !== undefined) {
        const advice = `${baseUrl}/`.endsWith(`/${repeated}/`) && `${_api_js__WEBPACK_IMPORTED_MODULE_1__/* .TOKENS_PATH */ .ZP}/`.startsWith(`/${repeated}/`)
            ? `the action adds ${_api_js__WEBPACK_IMPORTED_MODULE_1__/* .TOKENS_PATH */ .ZP} to it, so leave /${repeated} off its end`
            : 'check its path prefix';
        return ` Check the baseUrl input (${baseUrl}): the path repeats /${repeated}/; ${advice}.`;
    }
    if (!pathname.endsWith(_api_js__WEBPACK_IMPORTED_MODULE_1__/* .TOKENS_PATH */ .ZP))
        return '';
    return ` Nothing answers at ${origin}${pathname}: check the baseUrl input (${baseUrl}). The action adds ${_api_js__WEBPACK_IMPORTED_MODULE_1__/* .TOKENS_PATH */ .ZP} to it: give the API's base URL with its path prefix, if it has one, like https://api.example.com or https://example.com/gateway.`;
}


/***/ }),

/***/ 165:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  Vk: () => (/* binding */ CUT_OFF),
  G5: () => (/* binding */ HttpTransport),
  mY: () => (/* binding */ PLAIN_HTTP),
  wX: () => (/* binding */ TransportError),
  _O: () => (/* binding */ USER_AGENT),
  I: () => (/* binding */ kindOf)
});

// UNUSED EXPORTS: inWords, send

;// CONCATENATED MODULE: external "node:http"
const external_node_http_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");
var external_node_http_default = /*#__PURE__*/__nccwpck_require__.n(external_node_http_namespaceObject);
;// CONCATENATED MODULE: external "node:https"
const external_node_https_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:https");
var external_node_https_default = /*#__PURE__*/__nccwpck_require__.n(external_node_https_namespaceObject);
// EXTERNAL MODULE: ./node_modules/@actions/http-client/lib/index.js + 2 modules
var lib = __nccwpck_require__(511);
// EXTERNAL MODULE: ./src/shared/text.ts
var shared_text = __nccwpck_require__(646);
;// CONCATENATED MODULE: ./package.json
const package_namespaceObject = {"rE":"0.1.0"};
;// CONCATENATED MODULE: ./src/platform/http.ts





const USER_AGENT = `gateway-token-action/${package_namespaceObject.rE}`;
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
    clients = { auth: keptAlive(), api: keptAlive() };
    send(target, request, ...options) {
        return send(request, this.clients[target].getAgent(request.url), ...options);
    }
    close() {
        for (const client of Object.values(this.clients))
            client.dispose();
    }
}
function keptAlive() {
    return new lib/* HttpClient */.Qq(USER_AGENT, [], { keepAlive: true });
}
const MAX_BODY_BYTES = 64 * 1024 * 1024;
function send(request, agent, ...[timeoutMs, signal, onWritten]) {
    return new Promise((resolve, reject) => {
        const url = new URL(request.url);
        const { method, headers } = request;
        const req = (url.protocol === 'https:' ? (external_node_https_default()) : (external_node_http_default())).request(url, { method, headers, agent });
        let sent = false;
        const finish = (error, response) => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', cutOff);
            if (response !== undefined)
                resolve(response);
            else if (error instanceof TransportError)
                reject(error);
            else
                reject(new TransportError(...inWords(error, sent)));
        };
        const stop = (message, code) => {
            const error = new TransportError(message, code, sent);
            finish(error);
            req.destroy(error);
        };
        const timer = setTimeout(() => {
            stop(`no answer within ${timeoutMs / 1000} s (timeout)`, 'ETIMEDOUT');
        }, timeoutMs);
        const cutOff = () => {
            stop('cut off: the step was cancelled', CUT_OFF);
        };
        if (signal?.aborted === true)
            cutOff();
        else
            signal?.addEventListener('abort', cutOff, { once: true });
        req.on('error', finish);
        req.on('finish', () => {
            sent = true;
            onWritten?.();
        });
        req.on('response', (res) => {
            sent = true;
            let chunks = [];
            let size = 0;
            res.on('data', (chunk) => {
                size += chunk.length;
                if (size > MAX_BODY_BYTES)
                    stop(`answer larger than ${(0,shared_text/* formatBytes */.z3)(MAX_BODY_BYTES)}`, 'EMSGSIZE');
                else
                    chunks.push(chunk);
            });
            res.on('error', finish);
            res.on('end', () => {
                const body = Buffer.concat(chunks, size).toString('utf8');
                chunks = [];
                const { statusCode: status = 0, statusMessage: statusText = '' } = res;
                finish(undefined, { status, statusText, headers: res.headers, body });
            });
        });
        req.end(request.body);
    });
}
const UNTRUSTED_CA = 'its certificate was issued by a CA that is not trusted';
const PLAIN_HTTP = 'ERR_SSL_WRONG_VERSION_NUMBER';
const NODE_ERRORS = {
    ECONNREFUSED: ['unreachable', 'connection refused'],
    ENOTFOUND: ['unreachable', 'host not found'],
    EAI_AGAIN: ['unreachable', 'host name lookup failed'],
    EHOSTUNREACH: ['unreachable', 'host unreachable'],
    ENETUNREACH: ['unreachable', 'network unreachable'],
    ENETDOWN: ['unreachable'],
    ECONNRESET: ['lost', 'connection reset'],
    ECONNABORTED: ['lost', 'connection aborted'],
    EPIPE: ['lost', 'connection closed while sending'],
    ETIMEDOUT: ['lost'],
    DEPTH_ZERO_SELF_SIGNED_CERT: ['certificate', 'its certificate is self-signed, and not trusted'],
    SELF_SIGNED_CERT_IN_CHAIN: [
        'certificate',
        'its certificate chain ends in a self-signed CA that is not trusted',
    ],
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: ['certificate', UNTRUSTED_CA],
    UNABLE_TO_GET_ISSUER_CERT: ['certificate', 'certificate not trusted'],
    UNABLE_TO_GET_ISSUER_CERT_LOCALLY: ['certificate', UNTRUSTED_CA],
    CERT_UNTRUSTED: ['certificate', 'certificate not trusted'],
    CERT_SIGNATURE_FAILURE: ['certificate', 'certificate not trusted'],
    CERT_HAS_EXPIRED: ['certificate', 'its certificate has expired'],
    CERT_NOT_YET_VALID: ['certificate', 'certificate not trusted'],
    ERR_TLS_CERT_ALTNAME_INVALID: ['certificate', 'its certificate is for another host name'],
    [PLAIN_HTTP]: ['tls', 'the server answered in plain HTTP, not in TLS'],
    EPROTO: ['tls'],
};
function kindOf(code) {
    return NODE_ERRORS[code]?.[0] ?? (code.startsWith('ERR_SSL_') ? 'tls' : undefined);
}
const PROXY_REFUSAL = /tunneling socket could not be established, statusCode=(\d{3})/;
const OPENSSL_ERROR = /\berror:[0-9A-F]+:[^:\n]*:[^:\n]*:([^:\n]+)/;
function inWords(error, sent) {
    const message = error instanceof Error ? error.message : String(error);
    const proxyStatus = PROXY_REFUSAL.exec(message)?.[1];
    if (proxyStatus === '407')
        return ['the proxy answered 407 Proxy Authentication Required (EPROXY)', 'EPROXYAUTH', false];
    if (proxyStatus !== undefined)
        return [`the proxy answered ${proxyStatus} to the tunnel (EPROXY)`, 'EPROXY', false];
    const code = error.code;
    const given = typeof code === 'string' ? code : 'EUNKNOWN';
    const reason = OPENSSL_ERROR.exec(message)?.[1];
    const known = given === 'EPROTO' && reason !== undefined
        ? `ERR_SSL_${reason.toUpperCase().replaceAll(' ', '_')}`
        : given;
    const words = NODE_ERRORS[known]?.[1] ??
        (reason === undefined ? (0,shared_text/* oneLine */.TN)(message) : `TLS with the server failed: ${reason}`);
    return [`${words} (${known})`, known, sent && known !== PLAIN_HTTP];
}


/***/ }),

/***/ 130:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  O: () => (/* binding */ githubRunner),
  b: () => (/* binding */ startStep)
});

// NAMESPACE OBJECT: ./node_modules/@actions/core/lib/platform.js
var platform_namespaceObject = {};
__nccwpck_require__.r(platform_namespaceObject);
__nccwpck_require__.d(platform_namespaceObject, {
  arch: () => (arch),
  getDetails: () => (getDetails),
  isLinux: () => (isLinux),
  isMacOS: () => (isMacOS),
  isWindows: () => (isWindows),
  platform: () => (platform)
});

// NAMESPACE OBJECT: ./node_modules/@actions/core/lib/core.js
var core_namespaceObject = {};
__nccwpck_require__.r(core_namespaceObject);
__nccwpck_require__.d(core_namespaceObject, {
  ExitCode: () => (ExitCode),
  addPath: () => (addPath),
  debug: () => (debug),
  endGroup: () => (endGroup),
  error: () => (error),
  exportVariable: () => (exportVariable),
  getBooleanInput: () => (getBooleanInput),
  getIDToken: () => (getIDToken),
  getInput: () => (getInput),
  getMultilineInput: () => (getMultilineInput),
  getState: () => (getState),
  group: () => (group),
  info: () => (info),
  isDebug: () => (isDebug),
  markdownSummary: () => (markdownSummary),
  notice: () => (notice),
  platform: () => (platform_namespaceObject),
  saveState: () => (saveState),
  setCommandEcho: () => (setCommandEcho),
  setFailed: () => (setFailed),
  setOutput: () => (setOutput),
  setSecret: () => (setSecret),
  startGroup: () => (startGroup),
  summary: () => (summary),
  toPlatformPath: () => (toPlatformPath),
  toPosixPath: () => (toPosixPath),
  toWin32Path: () => (toWin32Path),
  warning: () => (warning)
});

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
function issueCommand(command, properties, message) {
    const cmd = new Command(command, properties, message);
    process.stdout.write(cmd.toString() + external_os_namespaceObject.EOL);
}
function issue(name, message = '') {
    issueCommand(name, {}, message);
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




function issueFileCommand(command, message) {
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
class BearerCredentialHandler {
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



class OidcClient {
    static createHttpClient(allowRetry = true, maxRetry = 10) {
        const requestOptions = {
            allowRetries: allowRetry,
            maxRetries: maxRetry
        };
        return new lib/* HttpClient */.Qq('actions/oidc-client', [new BearerCredentialHandler(OidcClient.getRequestToken())], requestOptions);
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
            const httpclient = OidcClient.createHttpClient();
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
                let id_token_url = OidcClient.getIDTokenUrl();
                if (audience) {
                    const encodedAudience = encodeURIComponent(audience);
                    id_token_url = `${id_token_url}&audience=${encodedAudience}`;
                }
                debug(`ID token url is ${id_token_url}`);
                const id_token = yield OidcClient.getCall(id_token_url);
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
const markdownSummary = _summary;
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
    return pth.replace(/[/\\]/g, external_path_namespaceObject.sep);
}
//# sourceMappingURL=path-utils.js.map
;// CONCATENATED MODULE: ./src/bundle/exec.ts
function getExecOutput() {
    return Promise.reject(new Error('@actions/exec is not bundled with this action (see src/bundle/exec.ts).'));
}

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
    const { stdout: version } = yield getExecOutput('powershell -command "(Get-CimInstance -ClassName Win32_OperatingSystem).Version"', undefined, {
        silent: true
    });
    const { stdout: name } = yield getExecOutput('powershell -command "(Get-CimInstance -ClassName Win32_OperatingSystem).Caption"', undefined, {
        silent: true
    });
    return {
        name: name.trim(),
        version: version.trim()
    };
});
const getMacOsInfo = () => platform_awaiter(void 0, void 0, void 0, function* () {
    var _a, _b, _c, _d;
    const { stdout } = yield getExecOutput('sw_vers', undefined, {
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
    const { stdout } = yield getExecOutput('lsb_release', ['-i', '-r', '-s'], {
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
        return issueFileCommand('ENV', prepareKeyValueMessage(name, val));
    }
    issueCommand('set-env', { name }, convertedVal);
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
function setSecret(secret) {
    issueCommand('add-mask', {}, secret);
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
    process.env['PATH'] = `${inputPath}${external_path_namespaceObject.delimiter}${process.env['PATH']}`;
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
        return issueFileCommand('OUTPUT', prepareKeyValueMessage(name, value));
    }
    process.stdout.write(external_os_namespaceObject.EOL);
    issueCommand('set-output', { name }, toCommandValue(value));
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
function debug(message) {
    issueCommand('debug', {}, message);
}
/**
 * Adds an error issue
 * @param message error issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function error(message, properties = {}) {
    issueCommand('error', toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Adds a warning issue
 * @param message warning issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function warning(message, properties = {}) {
    issueCommand('warning', toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Adds a notice issue
 * @param message notice issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function notice(message, properties = {}) {
    issueCommand('notice', toCommandProperties(properties), message instanceof Error ? message.toString() : message);
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
        return issueFileCommand('STATE', prepareKeyValueMessage(name, value));
    }
    issueCommand('save-state', { name }, toCommandValue(value));
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
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __nccwpck_require__(24);
;// CONCATENATED MODULE: external "node:os"
const external_node_os_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");
;// CONCATENATED MODULE: external "node:url"
const external_node_url_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");
// EXTERNAL MODULE: ./src/shared/errors.ts
var errors = __nccwpck_require__(382);
// EXTERNAL MODULE: ./src/runner/start.ts
var start = __nccwpck_require__(826);
// EXTERNAL MODULE: ./src/shared/text.ts
var shared_text = __nccwpck_require__(646);
;// CONCATENATED MODULE: ./src/runner/github-runner.ts







const withoutLegacyCommands = (command) => (message) => {
    core_namespaceObject[command]((0,shared_text/* neutralizeLegacyCommands */.N9)(message));
};
const toRunnerFile = (file, write) => (name, value) => {
    (0,errors/* toFile */.eZ)(file, () => {
        core_namespaceObject[write](name, value);
    });
};
const githubRunner = {
    getInput: (name) => getInput(name),
    inputNames: () => Object.keys(process.env)
        .filter((variable) => variable.toUpperCase().startsWith('INPUT_'))
        .map((variable) => variable.slice('INPUT_'.length)),
    setSecret: (value) => {
        setSecret(value);
    },
    setFailed: withoutLegacyCommands('setFailed'),
    debug: withoutLegacyCommands('debug'),
    info: (message) => {
        info((0,shared_text/* neutralizeCommands */.Kw)((0,shared_text/* oneLine */.TN)(message)));
    },
    notice: withoutLegacyCommands('notice'),
    warning: withoutLegacyCommands('warning'),
    setOutput: toRunnerFile('GITHUB_OUTPUT', 'setOutput'),
    exportVariable: toRunnerFile('GITHUB_ENV', 'exportVariable'),
    saveState: toRunnerFile('GITHUB_STATE', 'saveState'),
    getState: (name) => getState(name),
    writeSummary: async (markdown) => {
        if (process.env.GITHUB_STEP_SUMMARY)
            await summary.addRaw(markdown, true).write();
        else
            debug('GITHUB_STEP_SUMMARY is not set; no job summary written.');
    },
    tempDir: () => process.env.RUNNER_TEMP || (0,external_node_os_namespaceObject.tmpdir)(),
    onCancel: start/* listenForCancel */.Fh,
};
async function startStep(entry, step) {
    const script = process.argv[1];
    const real = (path) => external_node_fs_.realpathSync.native(path);
    if (script === undefined || real(script) !== real((0,external_node_url_namespaceObject.fileURLToPath)(entry)))
        return;
    if (process.env.GITHUB_OUTPUT && process.env.GITHUB_STATE) {
        await step();
        return;
    }
    process.stderr.write('This is a GitHub Action: it runs only as a step of a GitHub Actions job (GITHUB_OUTPUT and GITHUB_STATE are not set). Elsewhere, use the command line: npx gateway-token --help.\n');
    process.exitCode = 1;
}


/***/ }),

/***/ 826:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Fh: () => (/* binding */ listenForCancel),
/* harmony export */   Ng: () => (/* binding */ connect)
/* harmony export */ });
/* unused harmony exports CANCEL_GRACE_MS, stopOnCancel */
/* harmony import */ var _platform_client_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(91);
/* harmony import */ var _shared_time_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(877);


function connect(runner, connection, secrets, clock, { transport, bound } = {}) {
    const total = connection.totalTimeoutMs;
    const tighter = bound !== undefined && (total === 0 || bound.ms < total);
    const deadline = tighter ? new _shared_time_js__WEBPACK_IMPORTED_MODULE_1__/* .Deadline */ .B2(clock, bound.ms, bound.name) : new _shared_time_js__WEBPACK_IMPORTED_MODULE_1__/* .Deadline */ .B2(clock, total);
    const stopListening = stopOnCancel(runner, deadline, clock);
    const options = { ...connection, secrets, log: runner, deadline, clock };
    const client = new _platform_client_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformClient */ .Ht(transport ? { ...options, transport } : options);
    const close = () => {
        stopListening();
        client.close();
    };
    return { client, deadline, close };
}
function listenForCancel(listener) {
    const onSigint = listener.bind(undefined, 'SIGINT');
    const onSigterm = listener.bind(undefined, 'SIGTERM');
    process.on('SIGINT', onSigint).on('SIGTERM', onSigterm);
    return () => {
        process.off('SIGINT', onSigint).off('SIGTERM', onSigterm);
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
        if (!deadline.cutSignal.aborted)
            runner.info(`Cancelled (${signal}): requests in flight are cut off; reporting what was done.`);
        deadline.cancel(signal);
        deadline.cut();
    });
    return () => {
        finished.abort();
        stopListening();
    };
}


/***/ }),

/***/ 382:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   DS: () => (/* binding */ FORK_HINT),
/* harmony export */   GI: () => (/* binding */ RequestError),
/* harmony export */   V0: () => (/* binding */ UnsettledRevokeError),
/* harmony export */   Xe: () => (/* binding */ ThrottledError),
/* harmony export */   YP: () => (/* binding */ UnknownTokenError),
/* harmony export */   bD: () => (/* binding */ messageOf),
/* harmony export */   dz: () => (/* binding */ InputError),
/* harmony export */   eZ: () => (/* binding */ toFile),
/* harmony export */   j3: () => (/* binding */ DeadlineError),
/* harmony export */   lZ: () => (/* binding */ ActionError),
/* harmony export */   v3: () => (/* binding */ AuthenticationError),
/* harmony export */   vu: () => (/* binding */ isRefusal)
/* harmony export */ });
/* harmony import */ var _text_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(646);

class ActionError extends Error {
}
class InputError extends ActionError {
    input;
    constructor(input, problem) {
        super(`Input '${input}' ${problem}`);
        this.input = input;
    }
}
function toFile(file, write) {
    try {
        return write();
    }
    catch (error) {
        throw new ActionError(`could not write ${file}: ${(0,_text_js__WEBPACK_IMPORTED_MODULE_0__/* .asSentence */ .KG)(messageOf(error))}`);
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
    constructor(message, status, transient = false) {
        super(message);
        this.status = status;
        this.transient = transient;
    }
}
class AuthenticationError extends RequestError {
}
class DeadlineError extends RequestError {
    mayHaveTakenEffect;
    constructor(message, status, mayHaveTakenEffect = false) {
        super(message, status);
        this.mayHaveTakenEffect = mayHaveTakenEffect;
    }
}
class UnsettledRevokeError extends RequestError {
    refusal;
    mayHaveRevoked;
    constructor(refusal, mayHaveRevoked) {
        super(refusal.message, refusal.status);
        this.refusal = refusal;
        this.mayHaveRevoked = mayHaveRevoked;
    }
}
class ThrottledError extends RequestError {
    throttle;
    constructor(message, throttle) {
        super(message, 429);
        this.throttle = { ...throttle, why: message };
    }
}
class UnknownTokenError extends RequestError {
}
function isRefusal(status) {
    return status !== undefined && status >= 400 && status <= 499 && status !== 408 && status !== 429;
}


/***/ }),

/***/ 443:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   AB: () => (/* binding */ quoteName),
/* harmony export */   L2: () => (/* binding */ readTimestamp),
/* harmony export */   Lv: () => (/* binding */ toRecord),
/* harmony export */   O1: () => (/* binding */ isUuid),
/* harmony export */   Sk: () => (/* binding */ tokenLabel),
/* harmony export */   Wo: () => (/* binding */ NO_NAME),
/* harmony export */   ar: () => (/* binding */ uniqueById),
/* harmony export */   k6: () => (/* binding */ publicJson),
/* harmony export */   ll: () => (/* binding */ newestFirst),
/* harmony export */   m_: () => (/* binding */ shortId),
/* harmony export */   s: () => (/* binding */ sameId),
/* harmony export */   uz: () => (/* binding */ findById),
/* harmony export */   v8: () => (/* binding */ projectOf),
/* harmony export */   wO: () => (/* binding */ createdTime),
/* harmony export */   wW: () => (/* binding */ nameAndId)
/* harmony export */ });
/* unused harmony export UUID */
/* harmony import */ var _text_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(646);

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
function toRecord(value) {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
        return 'not an object';
    const fields = value;
    const { id, state, tokenValue } = fields;
    if (typeof id !== 'string' || id === '')
        return 'a record without an id';
    if (typeof state !== 'string' || state === '')
        return 'a record without a state';
    const record = { id, state };
    for (const field of PUBLIC_FIELDS)
        if (typeof fields[field] === 'string')
            record[field] = fields[field];
    if (typeof tokenValue === 'string' && tokenValue.trim() !== '')
        record.tokenValue = tokenValue;
    return record;
}
function publicJson(records, around = []) {
    return JSON.stringify(records, [...around, ...PUBLIC_FIELDS]);
}
function nameAndId(token) {
    return `${token.name === undefined ? NO_NAME : quoteName(token.name)} (${shortId(token)})`;
}
function quoteName(name) {
    return `'${(0,_text_js__WEBPACK_IMPORTED_MODULE_0__/* .truncate */ .xv)((0,_text_js__WEBPACK_IMPORTED_MODULE_0__/* .oneLine */ .TN)(name), 200)}'`;
}
const NO_NAME = '(a name that is not text)';
function shortId(token) {
    return (0,_text_js__WEBPACK_IMPORTED_MODULE_0__/* .truncate */ .xv)((0,_text_js__WEBPACK_IMPORTED_MODULE_0__/* .oneLine */ .TN)(token.id), 80);
}
function tokenLabel(token) {
    return `gateway token ${nameAndId(token)}`;
}
function uniqueById(records) {
    const seen = new Set();
    const isNew = (record) => seen.size < seen.add(caseless(record.id)).size;
    if (records.every(isNew))
        return records;
    seen.clear();
    return records.filter(isNew);
}
const caseless = (id) => (/[^a-z0-9-]/.test(id) ? id.toLowerCase() : id);
function sameId(a, b) {
    return caseless(a) === caseless(b);
}
function projectOf(records) {
    const id = records[0]?.projectId;
    if (id === undefined || records.some(({ projectId }) => projectId === undefined))
        return undefined;
    return records.every(({ projectId = '' }) => sameId(projectId, id)) ? { id } : 'several';
}
function findById(tokens, tokenId) {
    return tokens.find((token) => sameId(token.id, tokenId));
}
function createdTime(record) {
    return record.createdAt === undefined ? undefined : readTimestamp(record.createdAt);
}
function newestFirst(records) {
    const keyed = records.map((record) => [createdTime(record) ?? -Infinity, record]);
    keyed.sort(([timeA, a], [timeB, b]) => timeB - timeA || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return keyed.map(([, record]) => record);
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
    const [year = 0, month = 0, day, hour, minute, second] = match.slice(1, 7).map(Number);
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


/***/ }),

/***/ 646:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   ER: () => (/* binding */ isAscii),
/* harmony export */   KG: () => (/* binding */ asSentence),
/* harmony export */   Kw: () => (/* binding */ neutralizeCommands),
/* harmony export */   N9: () => (/* binding */ neutralizeLegacyCommands),
/* harmony export */   TN: () => (/* binding */ oneLine),
/* harmony export */   U9: () => (/* binding */ isLoopback),
/* harmony export */   eN: () => (/* binding */ lazyRegExp),
/* harmony export */   gW: () => (/* binding */ CONTROL_CHARACTER),
/* harmony export */   hD: () => (/* binding */ quote),
/* harmony export */   ih: () => (/* binding */ countTokens),
/* harmony export */   nV: () => (/* binding */ formatAge),
/* harmony export */   xv: () => (/* binding */ truncate),
/* harmony export */   yU: () => (/* binding */ someOf),
/* harmony export */   z3: () => (/* binding */ formatBytes)
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
    return value.replace(invisible(), (char) => `<U+${hex(char).toUpperCase()}>`);
}
const hex = (char) => (char.codePointAt(0) ?? 0).toString(16).padStart(4, '0');
function truncate(value, max) {
    if (value.length <= max)
        return value;
    let end = Math.max(0, max - 3);
    const code = value.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff)
        end--;
    return `${value.slice(0, end)}...`;
}
function quote(value, max = 80) {
    const json = JSON.stringify(truncate(showInvisible(value), max));
    return json.replace(/[\u007f-\u009f]/g, (c) => `\\u${hex(c)}`);
}
function isLoopback(url) {
    return /^(?:localhost|\[::1\]|127\.\d+\.\d+\.\d+)$/.test(url.hostname);
}
function asSentence(text) {
    return /[.!?]$/.test(text) ? text : `${text}.`;
}
function countTokens(count) {
    return `${count} token${count === 1 ? '' : 's'}`;
}
function someOf(items, whereAll, separator = ', ', end = '.') {
    const more = items.length > 5 ? ` And ${items.length - 5} more: ${whereAll}.` : '';
    return `${items.slice(0, 5).join(separator)}${end}${more}`;
}
function formatBytes(bytes) {
    if (bytes % 1_048_576 === 0)
        return `${bytes / 1_048_576} MiB`;
    return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
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

/***/ 877:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  B2: () => (/* binding */ Deadline),
  PU: () => (/* binding */ agesNow),
  ce: () => (/* binding */ stopped),
  ml: () => (/* binding */ systemClock)
});

;// CONCATENATED MODULE: external "node:timers/promises"
const promises_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:timers/promises");
;// CONCATENATED MODULE: ./src/shared/time.ts

const systemClock = {
    now: () => Date.now(),
    sleep: (ms, signal) => (0,promises_namespaceObject.setTimeout)(ms, undefined, { signal }).catch(() => undefined),
    jitter: () => Math.random(),
};
function agesNow(clock, platformTime) {
    const runnerNow = clock.now();
    const platformNow = platformTime(runnerNow);
    const ages = platformNow === undefined
        ? { by: 'runner' }
        : { by: 'platform', skewMs: platformNow - runnerNow };
    return { now: platformNow ?? runnerNow, ages };
}
class Deadline {
    clock;
    totalMs;
    bound;
    endsAt;
    stopping = new AbortController();
    cutting = new AbortController();
    stopSignal = this.stopping.signal;
    cutSignal = this.cutting.signal;
    constructor(clock, totalMs, bound) {
        this.clock = clock;
        this.totalMs = totalMs;
        this.bound = bound;
        this.endsAt = totalMs > 0 ? clock.now() + totalMs : Infinity;
    }
    remaining() {
        return this.stopSignal.aborted ? 0 : Math.max(0, this.endsAt - this.clock.now());
    }
    expired() {
        return this.remaining() === 0;
    }
    cancel(signal) {
        this.stopping.abort(signal);
    }
    grace(ms) {
        if (!this.stopSignal.aborted)
            this.endsAt += ms;
    }
    cut() {
        this.cutting.abort();
    }
    cause() {
        if (this.stopSignal.aborted)
            return { by: 'cancel', signal: String(this.stopSignal.reason) };
        return { by: 'totalTimeout', totalMs: this.totalMs, bound: this.bound };
    }
    describe() {
        return budget(this.totalMs, this.bound);
    }
}
const budget = (totalMs, bound = 'totalTimeout') => `${bound} (${Math.round(totalMs / 1000)} s)`;
function stopped(cause) {
    if (cause.by === 'cancel')
        return `The step was cancelled (${cause.signal})`;
    return `${budget(cause.totalMs, cause.bound)} ran out`;
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

/***/ 24:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");

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
/******/ var __webpack_exports__run = __webpack_exports__.e;
/******/ export { __webpack_exports__run as run };
/******/ 
