// Kinds of file whose summary was their first lines (a license header): Certora specifications
// and their JSON `.conf`, systemd units, gettext catalogs, Go module files, EditorConfig, XML
// documents of other names (a NuGet config) and SVG images. Small files written for these tests.
import assert from "node:assert/strict";
import { summarize } from "../../plugins/view_modes/summary.ts";

const LICENSE = "# SPDX-License-Identifier: MIT\n# Copyright (c) 2024 A. Author\n\n";

const CASES: Array<[string, string, string]> = [
  [
    "fv/specs/Token.spec",
    "// SPDX-License-Identifier: MIT\n" + [
      'import "methods/IERC20.spec";',
      "methods {",
      "    function balanceOf(address) external returns (uint256) envfree;",
      "}",
      "ghost mathint sumOfBalances {",
      "    init_state axiom sumOfBalances == 0;",
      "}",
      "ghost mapping(address => uint256) shadow;",
      "hook Sstore _balances[KEY address a] uint256 v (uint256 old) {",
      "    sumOfBalances = sumOfBalances + v - old;",
      "}",
      "definition nonpayable(env e) returns bool = e.msg.value == 0;",
      "invariant totalSupplyIsSum()",
      "    totalSupply() == sumOfBalances;",
      "rule transfer(env e) {",
      "    assert true;",
      "}",
    ].join("\n") + "\n",
    [
      "**Certora specification**, 18 lines",
      "- rules: `transfer`",
      "- invariants: `totalSupplyIsSum`",
      "- ghosts: `sumOfBalances`, `shadow`",
      "- definitions: `nonpayable`",
      "- hooks: `Sstore _balances[KEY address a] uint256 v (uint256 old)`",
      "- functions: `balanceOf`",
      "- imports: `methods/IERC20.spec`",
    ].join("\n"),
  ],
  [
    "fv/specs/Token.conf",
    '{\n    "files": ["fv/harnesses/TokenHarness.sol"],\n    "optimistic_loop": true,\n' +
    '    "verify": "TokenHarness:fv/specs/Token.spec"\n}\n',
    "**CONF**, 5 lines\n- keys: `files`, `optimistic_loop`, `verify`",
  ],
  [
    "deploy/app.service",
    LICENSE + [
      "[Unit]",
      "Description=The app server",
      "After=network.target",
      "",
      "[Service]",
      "Type=simple",
      "User=app",
      "ExecStartPre=/usr/bin/app migrate",
      "ExecStart=/usr/bin/app serve --port 8080",
      "Restart=on-failure",
      "",
      "[Install]",
      "WantedBy=multi-user.target",
    ].join("\n") + "\n",
    [
      "**systemd service**, 16 lines",
      "- description: `The app server`",
      "- sections: `[Unit]`, `[Service]`, `[Install]`",
      "- commands: `ExecStartPre=/usr/bin/app migrate`, `ExecStart=/usr/bin/app serve --port 8080`",
      "- runs as: `Type=simple`, `User=app`, `Restart=on-failure`",
      "- dependencies: `After=network.target`",
      "- install: `WantedBy=multi-user.target`",
    ].join("\n"),
  ],
  [
    "deploy/backup.timer",
    LICENSE + "[Unit]\nDescription=Nightly backup\n\n[Timer]\nOnCalendar=*-*-* 03:00:00\n" +
    "Persistent=true\n\n[Install]\nWantedBy=timers.target\n",
    [
      "**systemd timer**, 12 lines",
      "- description: `Nightly backup`",
      "- sections: `[Unit]`, `[Timer]`, `[Install]`",
      "- triggers: `OnCalendar=*-*-* 03:00:00`, `Persistent=true`",
      "- install: `WantedBy=timers.target`",
    ].join("\n"),
  ],
  [
    "po/de.po",
    LICENSE + [
      'msgid ""',
      'msgstr ""',
      '"Project-Id-Version: app 1.0\\n"',
      '"Language: de\\n"',
      "",
      "#: src/main.c:10",
      'msgid "Hello"',
      'msgstr "Hallo"',
      "",
      'msgid ""',
      '"A long "',
      '"message"',
      'msgstr ""',
      "",
      'msgctxt "menu"',
      'msgid "File"',
      'msgid_plural "Files"',
      'msgstr[0] "Datei"',
      'msgstr[1] "Dateien"',
      "",
      '#~ msgid "Gone"',
      '#~ msgstr "Weg"',
    ].join("\n") + "\n",
    "**gettext catalog** (`de`), 25 lines, 3 messages (2 translated)\n" +
    "- messages: `Hello`, `A long message`, `File`",
  ],
  [
    "po/app.pot",
    'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Hello"\nmsgstr ""\n',
    "**gettext template**, 6 lines, 1 message\n- messages: `Hello`",
  ],
  [
    "go.mod",
    "module example.com/app\n\ngo 1.22\n\nrequire (\n\tgithub.com/a/b v1.2.3\n" +
    "\tgolang.org/x/sys v0.1.0 // indirect\n)\n\nrequire example.com/c v0.0.1\n",
    "**Go module**, 10 lines\n- module: `example.com/app`\n- go: `1.22`\n" +
    "- requires: `github.com/a/b`, `golang.org/x/sys`, `example.com/c`",
  ],
  [
    ".editorconfig",
    "# top-most\nroot = true\n\n[*]\nindent_style = space\n",
    "**EditorConfig**, 5 lines\n- keys: `root`, `[*]`, `indent_style`",
  ],
  [
    "NuGet.config",
    '<?xml version="1.0" encoding="utf-8"?>\n<!-- Licensed under MIT -->\n<configuration>\n' +
    '  <packageSources>\n    <add key="a" value="b" />\n  </packageSources>\n</configuration>\n',
    "**XML**, 7 lines, root `configuration`\n- elements under the root: `packageSources × 1`",
  ],
  [
    "docs/flow.svg",
    '<!-- Copyright A. Author -->\n<svg xmlns="http://www.w3.org/2000/svg" width="200" ' +
    'height="100" viewBox="0 0 200 100">\n  <title>Build flow</title>\n  <g>\n' +
    '    <rect x="1" y="1" width="50" height="20"/>\n    <text x="5" y="15">read</text>\n' +
    '    <text x="60" y="15">render</text>\n  </g>\n</svg>\n',
    [
      "**SVG image**, 9 lines, root `svg`",
      "- size: width `200`, height `100`, viewBox `0 0 200 100`",
      "- texts: `Build flow`, `read`, `render`",
      "- elements under the root: `title × 1`, `g × 1`",
    ].join("\n"),
  ],
  [
    "api/schema.gql",
    "# Generated\ntype Query {\n  user(id: ID!): User\n}\n\nenum Role {\n  ADMIN\n}\n",
    "**GraphQL**, 8 lines\n- types: `Query`\n- enums: `Role`",
  ],
];

Deno.test("formats once shown as their first lines are summarized by what they hold", () => {
  for (const [path, text, expected] of CASES) {
    assert.equal(summarize(path, text), expected, path);
  }
});

Deno.test("a .spec that is no CVL, a unit ending with no unit section, a .conf of other text: first lines", () => {
  const rpm = "Name: app\nVersion: 1.0\n%description\nAn app.\n";
  assert.match(summarize("app.spec", rpm), /^\*\*Text\*\*, 4 lines\n\n {4}Name: app/);
  assert.match(summarize("a/b.path", "some/path\n"), /^\*\*Text\*\*/);
  assert.match(summarize("spark.conf", "spark.executor.memory 4g\n"), /^\*\*Text\*\*/);
  assert.match(
    summarize("nginx.conf", "[main]\nworkers = 4\n"),
    /^\*\*CONF\*\*, 2 lines\n- keys: `\[main\]`, `workers`/,
  );
  assert.match(summarize("Main.storyboard", "not xml\n"), /^\*\*Text\*\*/);
});

Deno.test("web servers' configurations are summarized by their blocks, ports, names and routes", () => {
  const nginx = LICENSE + [
    "upstream app {",
    "    server web1:5000;",
    "    server web2:5000;",
    "}",
    "server {",
    "    listen 80;",
    "    listen 443 ssl;",
    "    server_name example.com www.example.com;",
    "    root /var/www/html;",
    "    include /etc/nginx/mime.types;",
    "    location / {",
    "        proxy_pass http://app;",
    "    }",
    "    location ~* \\.(js|css)$ {",
    "        expires 1y;",
    "    }",
    "}",
  ].join("\n") + "\n";
  assert.equal(
    summarize("deploy/nginx/site.conf", nginx),
    [
      "**nginx configuration**, 20 lines",
      "- blocks: `server`",
      "- listen: `80`, `443 ssl`",
      "- server names: `example.com www.example.com`",
      "- locations: `/`, `~* \\.(js|css)$`",
      "- upstreams: `app`",
      "- proxies to: `http://app`",
      "- upstream servers: `web1:5000`, `web2:5000`",
      "- roots: `/var/www/html`",
      "- includes: `/etc/nginx/mime.types`",
    ].join("\n"),
  );
  const apache = LICENSE + [
    "Listen 8080",
    "LoadModule rewrite_module modules/mod_rewrite.so",
    "<VirtualHost *:8080>",
    "    ServerName example.com",
    "    DocumentRoot /var/www/app/public",
    "    <Directory /var/www/app/public>",
    "        AllowOverride All",
    "    </Directory>",
    "    ProxyPass /api http://localhost:3000/",
    "</VirtualHost>",
  ].join("\n") + "\n";
  assert.equal(
    summarize("conf/httpd-app.conf", apache),
    [
      "**Apache configuration**, 13 lines",
      "- virtual hosts: `*:8080`",
      "- listen: `8080`",
      "- server names: `example.com`",
      "- document roots: `/var/www/app/public`",
      "- sections: `Directory /var/www/app/public`",
      "- proxies: `ProxyPass /api http://localhost:3000/`",
      "- modules: `rewrite_module`",
    ].join("\n"),
  );
  assert.match(
    summarize("public/.htaccess", "RewriteEngine On\nRewriteRule ^ index.php [L]\n"),
    /^\*\*Apache configuration\*\*, 2 lines\n- rewrites: `\^ index\.php \[L\]`$/,
  );
  const haproxy = LICENSE + [
    "global",
    "    maxconn 2000",
    "frontend web",
    "    bind *:80",
    "    mode http",
    "    default_backend servers",
    "backend servers",
    "    balance roundrobin",
    "    server s1 10.0.0.1:8080 check",
  ].join("\n") + "\n";
  assert.equal(
    summarize("haproxy/haproxy.cfg", haproxy),
    [
      "**HAProxy configuration**, 12 lines",
      "- sections: `frontend web`, `backend servers`",
      "- binds: `*:80`",
      "- servers: `s1 10.0.0.1:8080`",
      "- backends used: `servers`",
      "- modes: `http`",
    ].join("\n"),
  );
  const caddy = LICENSE + [
    "(common) {",
    "    encode gzip",
    "}",
    "example.com, www.example.com {",
    "    import common",
    "    root * /srv/site",
    "    handle_path /api/* {",
    "        reverse_proxy localhost:3000",
    "    }",
    "}",
  ].join("\n") + "\n";
  assert.equal(
    summarize("Caddyfile", caddy),
    [
      "**Caddyfile**, 13 lines",
      "- sites: `example.com, www.example.com`",
      "- snippets: `common`",
      "- proxies to: `localhost:3000`",
      "- roots: `* /srv/site`",
      "- handles: `/api/*`",
      "- imports: `common`",
    ].join("\n"),
  );
  const lighttpd = LICENSE + [
    'server.modules = ( "mod_proxy" )',
    'server.document-root = "/var/www"',
    "server.port = 8080",
    '$HTTP["host"] == "example.com" {',
    '    proxy.server = ( "" => (( "host" => "127.0.0.1", "port" => 3000 )))',
    "}",
  ].join("\n") + "\n";
  assert.equal(
    summarize("lighttpd.conf", lighttpd),
    [
      "**lighttpd configuration**, 9 lines",
      '- settings: `server.modules = ( "mod_proxy" )`, `server.document-root = "/var/www"`, ' +
      "`server.port = 8080`",
      '- conditions: `$HTTP["host"] == "example.com"`',
      '- proxies: `proxy.server = ( "" => (( "host" => "127.0.0.1", "port" => 3000 )))`',
    ].join("\n"),
  );
  // A `.cfg` of another kind is read as INI, as before.
  assert.match(summarize("setup.cfg", "[metadata]\nname = x\n"), /^\*\*CFG\*\*/);
});

Deno.test("a HOCON .conf (Akka, Play, Gatling) with http { } and server { } blocks is no nginx configuration", () => {
  // Gatling's gatling.conf and Akka's application.conf: blocks, settings with `=` or `:`, no `;`.
  const hocon = [
    "gatling {",
    "  http {",
    "    enableGA = true",
    "  }",
    "}",
    "akka.http {",
    "  server {",
    "    idle-timeout = 60 s",
    '    listen: "0.0.0.0"',
    "  }",
    "}",
    "events {",
    "  retention: 10",
    "}",
  ].join("\n") + "\n";
  for (const path of ["src/test/gatling/conf/gatling.conf", "conf/application.conf"]) {
    assert.doesNotMatch(summarize(path, hocon), /nginx/, path);
  }
  // An nginx snippet of blocks and directives is one still.
  assert.match(
    summarize("nginx/site.conf", "server {\n    listen 80;\n}\n"),
    /^\*\*nginx configuration\*\*, 3 lines\n- blocks: `server`\n- listen: `80`$/,
  );
});

Deno.test("summaries label an Apache-style configuration by the server it is for: CUPS, ProFTPD, or a server configuration when no word says", () => {
  // CUPS's cupsd.conf: Apache's syntax (`Listen`, `<Location />`, `Require`), CUPS's words.
  const cups = [
    "LogLevel warn",
    "Listen localhost:631",
    "Listen /run/cups/cups.sock",
    "Browsing Off",
    "DefaultAuthType Basic",
    "WebInterface Yes",
    "<Location />",
    "  Order allow,deny",
    "</Location>",
    "<Location /admin>",
    "  Require user @SYSTEM",
    "</Location>",
    "<Policy default>",
    "  <Limit Send-Document Send-URI>",
    "    Require user @OWNER @SYSTEM",
    "  </Limit>",
    "</Policy>",
  ].join("\n") + "\n";
  assert.equal(
    summarize("conf/cupsd.conf", cups),
    [
      "**CUPS configuration**, 17 lines",
      "- listen: `localhost:631`, `/run/cups/cups.sock`",
      "- sections: `Location /`, `Location /admin`",
      "- policies: `default`",
    ].join("\n"),
  );
  // ProFTPD: `<Directory>` and `<IfModule>` as Apache writes them, its own words.
  const proftpd = [
    'ServerName "FTP server"',
    "ServerType standalone",
    "DefaultRoot ~",
    "<Anonymous ~ftp>",
    "  User ftp",
    "</Anonymous>",
    "<Directory /srv/ftp>",
    "  AllowOverwrite on",
    "</Directory>",
  ].join("\n") + "\n";
  assert.match(summarize("etc/proftpd.conf", proftpd), /^\*\*ProFTPD configuration\*\*, 9 lines\n/);
  // Apache's words that ProFTPD has too (`TransferLog`, Red Hat's stock ssl.conf): Apache's.
  const ssl = [
    "Listen 443 https",
    "<VirtualHost _default_:443>",
    "ErrorLog logs/ssl_error_log",
    "TransferLog logs/ssl_access_log",
    "LogLevel warn",
    "SSLEngine on",
    "</VirtualHost>",
  ].join("\n") + "\n";
  assert.match(summarize("conf.d/ssl.conf", ssl), /^\*\*Apache configuration\*\*, 7 lines\n/);
  // Apache's syntax and no word of Apache's own or of another server: a server configuration.
  const fragment = ["Listen 8080", "<Location /status>", "  Require local", "</Location>"]
    .join("\n") + "\n";
  assert.match(
    summarize("conf/status.conf", fragment),
    /^\*\*server configuration \(Apache-style\)\*\*, 4 lines\n- listen: `8080`\n/,
  );
});
