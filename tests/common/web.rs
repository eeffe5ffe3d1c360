//! A `perfectplay serve` process for the web board's tests, and requests to it.

use std::io::{BufRead, BufReader};
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
        let mut child = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
            .arg("serve")
            .arg("--no-solve")
            .args(args)
            .env("XDG_DATA_HOME", NO_DATA)
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
        mut stop: impl FnMut(&str, &Value) -> bool,
    ) -> Vec<(String, Value)> {
        let res = self
            .agent
            .get(format!("{}{path}", self.url))
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

impl Drop for WebServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
