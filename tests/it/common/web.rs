//! A `perfectplay serve` process for the web board's tests, and requests to it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use serde_json::Value;

use super::{NO_DATA, REPLY_TIMEOUT};

/// A running `perfectplay serve` on a free port of 127.0.0.1.
pub struct WebServer {
    child: Child,
    /// The page's address, `http://127.0.0.1:PORT/`.
    pub url: String,
    agent: ureq::Agent,
}

impl WebServer {
    /// Starts `perfectplay serve --no-solve` with `args`, with a data directory that holds no
    /// tables, and waits for the address it prints.
    pub fn start(args: &[&str]) -> WebServer {
        let mut with_no_solve = vec!["--no-solve"];
        with_no_solve.extend_from_slice(args);
        WebServer::start_with_data(&with_no_solve, NO_DATA)
    }

    /// Starts `perfectplay serve` with `args` and `data` as its data directory
    /// (`XDG_DATA_HOME`, where it finds and builds tables), and waits for the address it prints.
    pub fn start_with_data(args: &[&str], data: &str) -> WebServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
            .arg("serve")
            .args(args)
            .env("XDG_DATA_HOME", data)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting perfectplay serve");
        let stdout = child.stdout.take().expect("its stdout");
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(REPLY_TIMEOUT).expect("the address line");
        let url = line
            .trim()
            .strip_prefix("perfectplay serve: ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        WebServer { child, url, agent }
    }

    /// `GET path` (`api/state?...`): the status and the body.
    pub fn get(&self, path: &str) -> (u16, String) {
        let mut res = self
            .agent
            .get(format!("{}{path}", self.url))
            .call()
            .unwrap_or_else(|e| panic!("GET {path}: {e}"));
        let status = res.status().as_u16();
        (status, res.body_mut().read_to_string().expect("the body"))
    }

    /// `GET path` on a thread of its own, for a request that runs while the test looks at the
    /// server: the body, once the server has sent it whole.
    pub fn get_in_background(&self, path: &str) -> thread::JoinHandle<String> {
        let (agent, url) = (self.agent.clone(), format!("{}{path}", self.url));
        thread::spawn(move || {
            let mut res = agent
                .get(&url)
                .call()
                .unwrap_or_else(|e| panic!("GET {url}: {e}"));
            res.body_mut().read_to_string().unwrap_or_default()
        })
    }

    /// `GET path`, answered with JSON: the status and the value.
    pub fn json(&self, path: &str) -> (u16, Value) {
        let (status, body) = self.get(path);
        let value =
            serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {path}: {e} in {body:?}"));
        (status, value)
    }

    /// `POST path` with `body`, answered with JSON.
    pub fn post(&self, path: &str, body: &str) -> (u16, Value) {
        let mut res = self
            .agent
            .post(format!("{}{path}", self.url))
            .send(body)
            .unwrap_or_else(|e| panic!("POST {path}: {e}"));
        let status = res.status().as_u16();
        let text = res.body_mut().read_to_string().expect("the body");
        let value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("POST {path}: {e} in {text:?}"));
        (status, value)
    }

    /// `method path` with `body` (raw bytes): the status, the `Allow` header if any, and the
    /// body as text.
    pub fn request(&self, method: &str, path: &str, body: &[u8]) -> (u16, Option<String>, String) {
        let request = ureq::http::Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.url))
            .body(body.to_vec())
            .expect("a request");
        let mut res = self
            .agent
            .run(request)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = res.status().as_u16();
        let allow = res
            .headers()
            .get("allow")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let text = res.body_mut().read_to_string().unwrap_or_default();
        (status, allow, text)
    }

    /// `GET path` as a stream of Server-Sent Events: the events (name, JSON data) until the
    /// server ends the stream, or until `stop` says enough (then the connection is dropped).
    pub fn events(
        &self,
        path: &str,
        stop: impl FnMut(&str, &Value) -> bool,
    ) -> Vec<(String, Value)> {
        WebServer::events_at(&self.url, path, stop)
    }

    /// [`WebServer::events`] of the server at `url`, from any thread.
    pub fn events_at(
        url: &str,
        path: &str,
        mut stop: impl FnMut(&str, &Value) -> bool,
    ) -> Vec<(String, Value)> {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        let res = agent
            .get(format!("{url}{path}"))
            .call()
            .unwrap_or_else(|e| panic!("GET {path}: {e}"));
        assert_eq!(res.status().as_u16(), 200, "GET {path}");
        let reader = BufReader::new(res.into_body().into_reader());
        let mut events = Vec::new();
        let mut name = String::new();
        for line in reader.lines() {
            let Ok(line) = line else { break };
            if let Some(n) = line.strip_prefix("event: ") {
                name = n.to_string();
            } else if let Some(data) = line.strip_prefix("data: ") {
                let value: Value = serde_json::from_str(data).expect("an event's JSON");
                let done = stop(&name, &value);
                events.push((name.clone(), value));
                if done {
                    break;
                }
            }
        }
        events
    }
}

/// A reply read off a raw socket: the status (0 when the server closed the connection without
/// one), the head's lines after the status line, and the body as far as it was read.
#[derive(Debug)]
pub struct RawReply {
    /// The status code.
    pub status: u16,
    /// The header lines, lower-cased names (`retry-after: 1`).
    pub headers: Vec<String>,
    /// The body's bytes read.
    pub body: String,
}

impl RawReply {
    /// The value of header `name` (lower case), if sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find_map(|line| {
            let (n, v) = line.split_once(':')?;
            (n.eq_ignore_ascii_case(name)).then(|| v.trim())
        })
    }
}

impl WebServer {
    /// The server's `host:port`.
    pub fn addr(&self) -> String {
        self.url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string()
    }

    /// A new raw connection to the server, with `timeout` on its reads and writes.
    pub fn connect(&self, timeout: Duration) -> TcpStream {
        let stream = TcpStream::connect(self.addr()).expect("connecting to the server");
        stream.set_read_timeout(Some(timeout)).unwrap();
        stream.set_write_timeout(Some(timeout)).unwrap();
        stream
    }

    /// Sends `bytes` on a new connection and reads the reply until the server closes it, its
    /// `Content-Length` is read, or `timeout` passes without a byte.
    pub fn raw(&self, bytes: &[u8], timeout: Duration) -> RawReply {
        let mut stream = self.connect(timeout);
        // The server may answer and close before taking all of a request it refuses.
        let _ = stream.write_all(bytes);
        read_reply(&mut stream)
    }

    /// The server's resident memory now and at its peak, in KiB (Linux's `/proc`).
    pub fn memory_kib(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the server's /proc status");
        let field = |name: &str| -> u64 {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
                .unwrap_or_else(|| panic!("{name} in {status}"))
        };
        (field("VmRSS:"), field("VmHWM:"))
    }

    /// Whether the server process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

/// Reads one reply off `stream` (see [`WebServer::raw`]).
pub fn read_reply(stream: &mut TcpStream) -> RawReply {
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 16384];
    let mut want: Option<usize> = None;
    loop {
        if let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&bytes[..end]).to_lowercase();
            let length = head.lines().find_map(|l| {
                l.strip_prefix("content-length:")
                    .and_then(|v| v.trim().parse::<usize>().ok())
            });
            want = length.map(|n| end + 4 + n);
        }
        if want.is_some_and(|n| bytes.len() >= n) {
            break;
        }
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
        }
    }
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    RawReply {
        status,
        headers: lines.map(str::to_string).collect(),
        body: body.to_string(),
    }
}

impl Drop for WebServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
