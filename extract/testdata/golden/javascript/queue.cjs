#!/usr/bin/env node
'use strict';

// A job queue in the CommonJS style of older Node code.

const fs = require('fs');
const { EventEmitter, once } = require('events');
const { join: joinPath, resolve = null } = require('path');
const debug = require('debug')('queue');
const Job = require('./job').Job;
require('./env');

var DEFAULT_CONCURRENCY = 4;

/**
 * Queue runs jobs with bounded concurrency.
 * @constructor
 * @param {number} concurrency
 */
function Queue(concurrency) {
  EventEmitter.call(this);
  this.concurrency = concurrency || DEFAULT_CONCURRENCY;
  this.pending = [];
  this.running = 0;
}

Queue.prototype = Object.create(EventEmitter.prototype);

/** push adds a job and starts it when a slot is free. */
Queue.prototype.push = function (fn) {
  var job = new Job(fn);
  this.pending.push(job);
  process.nextTick(this._drain.bind(this));
  return job;
};

// _drain starts pending jobs.
Queue.prototype._drain = function drain() {
  var self = this;
  while (self.running < self.concurrency && self.pending.length) {
    var job = self.pending.shift();
    self.running++;
    job.run(function (err) {
      self.running--;
      if (err) self.emit('error', err);
      self._drain();
    });
  }
};

Queue.fromFile = function (file) {
  var lines = fs.readFileSync(joinPath(__dirname, file), 'utf8').split('\n');
  var q = new Queue();
  lines.forEach(function (line) {
    q.push(makeTask(line));
  });
  return q;
};

function makeTask(line) {
  return function task(done) {
    debug('run %s', line);
    setImmediate(done);
  };
}

/**
 * stats summarises a queue.
 */
exports.stats = function (q) {
  return { pending: q.pending.length, running: q.running };
};

module.exports.waitIdle = async (q) => {
  while (q.running) await once(q, 'idle');
};

/** codec serialises jobs. */
exports.codec = {
  encode(job) {
    return JSON.stringify(job);
  },
  decode: (text) => new Job(JSON.parse(text)),
};

const retry = {
  attempts: 3,
  // backoff returns the delay before attempt n.
  backoff(n) {
    return Math.min(1000, 2 ** n * 10);
  },
  wrap: function (fn) {
    var self = this;
    return function wrapped() {
      return fn.apply(null, arguments).catch(function () {
        return self.backoff(1);
      });
    };
  },
};

(function main() {
  if (require.main === module) {
    var q = Queue.fromFile(process.argv[2]);
    q.on('error', console.error);
  }
})();

module.exports = { Queue, retry, makeTask: makeTask };
