/*
 * The API reference page (/api/docs): reads /api/openapi.json — with the back-office's token when
 * this browser is signed in there, so the page shows the routes the user's roles open; else the
 * public calls — and draws it with Redoc, served from our own origin. The page's policy allows
 * Redoc's <style> elements by this answer's nonce (<meta property="csp-nonce">), given to Redoc.
 * A large document is drawn a part (a group of tags) at a time: `?part=<group>`, or all with
 * `?part=*`. The document is untrusted (`untrustedSpec`): its texts are administrators'.
 */
(function () {
  'use strict';
  var LARGE = 150; // operations: beyond this the page opens on the first part
  var meta = document.querySelector('meta[property="csp-nonce"]');
  var nonce = (meta && meta.nonce) || undefined;
  var note = document.getElementById('note');
  var select = document.getElementById('part');
  var query = new URLSearchParams(location.search);
  var token = null;
  var lang = null;
  try {
    var session = JSON.parse(localStorage.getItem('ecofond.session') || 'null');
    token = session && typeof session.token === 'string' ? session.token : null;
    lang = localStorage.getItem('ecofond.lang');
  } catch (e) {
    /* storage closed: the public document */
  }
  if (query.get('lang')) lang = query.get('lang');
  var headers = { Accept: 'application/json' };
  if (lang) headers.Language = lang;

  function load(withToken) {
    var h = Object.assign({}, headers);
    if (withToken) h.Authorization = 'Bearer ' + token;
    return fetch('/api/openapi.json', { headers: h, credentials: 'omit' }).then(function (res) {
      // an expired session: the public document, saying so
      if (res.status === 401 && withToken) {
        token = null;
        return load(false).then(function (doc) {
          doc.expired = true;
          return doc;
        });
      }
      if (!res.ok) throw new Error('GET /api/openapi.json: ' + res.status);
      return res.json();
    });
  }

  function operations(doc, tags) {
    var n = 0;
    Object.keys(doc.paths).forEach(function (p) {
      Object.keys(doc.paths[p]).forEach(function (m) {
        if (!tags || tags.indexOf(doc.paths[p][m].tags[0]) >= 0) n++;
      });
    });
    return n;
  }

  /** The document with one group's tags and their operations only (the components stay whole). */
  function part(doc, group) {
    var tags = group.tags;
    var paths = {};
    Object.keys(doc.paths).forEach(function (p) {
      var item = {};
      Object.keys(doc.paths[p]).forEach(function (m) {
        if (tags.indexOf(doc.paths[p][m].tags[0]) >= 0) item[m] = doc.paths[p][m];
      });
      if (Object.keys(item).length) paths[p] = item;
    });
    return Object.assign({}, doc, {
      paths: paths,
      tags: doc.tags.filter(function (t) {
        return tags.indexOf(t.name) >= 0;
      }),
      'x-tagGroups': [group],
    });
  }

  load(!!token)
    .then(function (doc) {
      note.textContent = doc.expired
        ? 'Your back-office session has ended: these are the public calls. Sign in at /admin/ and reload to see yours.'
        : token
          ? 'The routes your roles open.'
          : 'The public calls. Sign in to the back-office (/admin/) in this browser and reload to see the routes your roles open.';
      delete doc.expired;
      var groups = doc['x-tagGroups'] || [];
      var total = operations(doc);
      var chosen = query.get('part');
      if (chosen === null && total > LARGE && groups.length) chosen = groups[0].name;
      var group = groups.filter(function (g) {
        return g.name === chosen;
      })[0];
      if (groups.length > 1) {
        var all = new Option('All (' + total + ' operations)', '*');
        select.add(all);
        groups.forEach(function (g) {
          select.add(new Option(g.name + ' (' + operations(doc, g.tags) + ')', g.name));
        });
        select.value = group ? group.name : '*';
        select.addEventListener('change', function () {
          query.set('part', select.value);
          location.search = query.toString();
        });
        document.getElementById('part-label').hidden = false;
      }
      window.Redoc.init(
        group ? part(doc, group) : doc,
        {
          // the document carries administrators' captions and descriptions (reference books, reports):
          // Redoc renders them as Markdown with HTML, so it sanitises them (DOMPurify) as untrusted
          untrustedSpec: true,
          nonce: nonce,
          nativeScrollbars: true,
          jsonSampleExpandLevel: 2,
          hideHostname: true,
          theme: { colors: { primary: { main: '#2e7d32' } }, sidebar: { width: '300px' } },
        },
        document.getElementById('redoc'),
      );
    })
    .catch(function (err) {
      note.textContent = String((err && err.message) || err);
    });
})();
