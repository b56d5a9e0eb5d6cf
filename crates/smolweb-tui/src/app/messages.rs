//! The messages between the app and its shell: what happened ([`Msg`]), what the shell must
//! do ([`Effect`], [`StoreOp`]) and why work the shell did failed ([`ShellError`]).

use crate::keymap::Key;
use smolweb_client::Outcome;
use smolweb_core::page::Page;
use smolweb_net::IdentityChoice;
use smolweb_store::StoreError;
use smolweb_store::approvals::Approval;
use smolweb_store::bookmarks::Bookmark;
use smolweb_store::identity::{Identity, NewIdentity, Scope};
use std::path::PathBuf;
use std::sync::Arc;

/// Something that happened.
#[derive(Clone, Debug)]
pub enum Msg {
    /// A key press.
    Key(Key),
    /// A left click at a screen cell.
    Click {
        /// Column.
        col: u16,
        /// Row (0 is the tab bar).
        row: u16,
    },
    /// The pointer moved over a screen cell.
    Hover {
        /// Column.
        col: u16,
        /// Row.
        row: u16,
    },
    /// Mouse wheel: positive = down.
    Wheel(i32),
    /// The terminal was resized.
    Resize {
        /// Columns.
        width: u16,
        /// Rows.
        height: u16,
    },
    /// Milliseconds since start; drives the spinner and the link-number timeout.
    Tick(u64),
    /// Text pasted (bracketed paste).
    Paste(String),
    /// A fetch ended.
    Fetched {
        /// Its request id.
        id: u64,
        /// What came back.
        outcome: Box<Outcome>,
    },
    /// A fetch received bytes.
    Progress {
        /// Its request id.
        id: u64,
        /// Bytes so far.
        bytes: u64,
    },
    /// History (url, title) and bookmarks, for completion and the bookmark toggle.
    Lists {
        /// (url, title), newest first.
        history: Vec<(String, Option<String>)>,
        /// Bookmarks, as stored.
        bookmarks: Vec<Bookmark>,
    },
    /// The identities in the store.
    Identities(Vec<Identity>),
    /// Pending agent requests.
    Approvals(Vec<Approval>),
    /// A new identity was made (or not).
    IdentityCreated {
        /// The identity, or why not.
        result: Result<Identity, ShellError>,
        /// Where to go with the new identity (tab id, URL).
        then: Option<(u64, String)>,
    },
    /// An identity was imported (or not, and why).
    IdentityImported(Result<Identity, ShellError>),
    /// A store operation finished: a sentence for the status line, or an error.
    Done(Result<String, ShellError>),
    /// Feeds and offline reading: refresh progress, results, an offered offline copy.
    Feeds(super::FeedMsg),
    /// What agents are doing, what they suggest, what is shared with them (the shell looks
    /// every few seconds and reports changes).
    Agents(super::AgentsSeen),
    /// A picture was decoded (or refused).
    Picture {
        /// Its URL.
        key: String,
        /// The picture, or why it is not shown.
        result: Result<crate::picture::Decoded, crate::picture::PictureError>,
    },
    /// The editor of an [`Effect::EditText`] returned.
    Edited {
        /// What the text is for.
        purpose: super::Purpose,
        /// What the file held when the editor exited, or why there is nothing to send.
        result: Result<String, ShellError>,
    },
    /// The next link of the tour, taken off it (with how many wait after it; None: the
    /// tour is empty), or why the tour could not be read.
    TourNext(Result<Option<(smolweb_store::tour::Stop, usize)>, ShellError>),
    /// The file of an [`Effect::ReadUploadFile`] was read (or not).
    UploadFile {
        /// The path as typed.
        path: String,
        /// Its bytes, or why not.
        result: Result<Vec<u8>, ShellError>,
    },
}

/// Why work the shell did for the app failed (a store change, a download, a program). The
/// cause is kept as the error's source; `Arc` keeps the messages cloneable.
#[derive(Clone, Debug, thiserror::Error)]
pub enum ShellError {
    /// A store read or write failed.
    #[error(transparent)]
    Store(Arc<StoreError>),
    /// A download could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        source: Arc<std::io::Error>,
    },
    /// Every name tried for a download exists already.
    #[error("too many files named {name} in {}", dir.display())]
    NameTaken {
        /// The name asked for.
        name: String,
        /// The downloads directory.
        dir: PathBuf,
    },
    /// `[tui] external_command` is empty.
    #[error("no external command configured")]
    NoCommand,
    /// A link of another scheme than http(s) and mailto reached the opener.
    #[error("not handed to an external program: only http(s) and mailto links are ({scheme}:)")]
    NotOpened {
        /// Its scheme (sanitized).
        scheme: String,
    },
    /// The external program could not be started.
    #[error("cannot start {program} for {url}: {source}")]
    Start {
        /// The program.
        program: String,
        /// What it was to open.
        url: String,
        /// Why it did not start.
        source: Arc<std::io::Error>,
    },
    /// The store thread could not be started.
    #[error("not done: the store thread did not start ({0})")]
    NoStoreThread(#[source] Arc<std::io::Error>),
    /// The store thread has stopped (it no longer takes work).
    #[error("not done: the store thread has stopped")]
    StoreThreadStopped,
    /// The editor's temporary file could not be made, written or read back.
    #[error("the editor's file {}: {source}: nothing sent", path.display())]
    EditorFile {
        /// The temporary file.
        path: PathBuf,
        /// Why.
        source: Arc<std::io::Error>,
    },
    /// The editor could not be started.
    #[error("cannot start the editor {program}: {source}: nothing sent")]
    EditorStart {
        /// The command (`$VISUAL`, `$EDITOR` or vi).
        program: String,
        /// Why.
        source: Arc<std::io::Error>,
    },
    /// The editor exited unsuccessfully.
    #[error("the editor exited with {status}: nothing sent")]
    EditorFailed {
        /// "status N", or the signal that ended it.
        status: String,
    },
    /// The terminal could not be handed to the editor or taken back.
    #[error("cannot hand the terminal to the editor: {0}: nothing sent")]
    EditorTerminal(#[source] Arc<std::io::Error>),
    /// The file to upload could not be read.
    #[error("cannot read {}: {source}", path.display())]
    UploadRead {
        /// The file (`~` expanded).
        path: PathBuf,
        /// Why.
        source: Arc<std::io::Error>,
    },
    /// The file to upload is larger than an upload may be.
    #[error("{} is {size} bytes; an upload from the browser is at most {max} bytes", path.display())]
    UploadTooLarge {
        /// The file (`~` expanded).
        path: PathBuf,
        /// Its size.
        size: u64,
        /// The limit.
        max: u64,
    },
}

impl From<StoreError> for ShellError {
    fn from(e: StoreError) -> Self {
        ShellError::Store(Arc::new(e))
    }
}

/// Per-fetch options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FetchOptions {
    /// Gemini input (query).
    pub input: Option<String>,
    /// A gopher search string.
    pub search: Option<String>,
    /// Skip the cache.
    pub refresh: bool,
    /// Which client certificate to present.
    pub identity: IdentityChoice,
    /// A changed certificate accepted for this session (its fingerprint).
    pub trust_once: Option<String>,
    /// Web pages: the whole page rather than its main content.
    pub web_full: bool,
    /// The person typed this address (the address bar, the command line): a finger query
    /// that asks to be forwarded (`user@host`) is sent only then.
    pub typed: bool,
    /// Said on the status line when the page arrives (the tour's next link: what is left,
    /// and for an agent's link who added it and why). Never sent anywhere.
    pub note: Option<String>,
}

/// Persistent changes and reads, done by the shell.
#[derive(Clone, Debug)]
pub enum StoreOp {
    /// Remember a visit.
    RecordHistory {
        /// What history keeps of the URL.
        url: String,
        /// The page's title.
        title: Option<String>,
    },
    /// Add or rename a bookmark.
    AddBookmark {
        /// The page.
        url: String,
        /// Its name.
        title: String,
    },
    /// Remove a bookmark.
    RemoveBookmark {
        /// The page.
        url: String,
    },
    /// File a bookmark in a folder.
    MoveBookmark {
        /// The bookmarked page.
        url: String,
        /// The folder (empty: the top level).
        folder: String,
    },
    /// Forget one visit.
    RemoveVisit {
        /// The visited URL.
        url: String,
    },
    /// Forget every visit.
    ClearHistory,
    /// Make or replace the person's rule for a web site (the region picker).
    SetSiteRule {
        /// The site (host).
        site: String,
        /// The CSS selector of its content.
        content: String,
    },
    /// Remove a web site's rule.
    RemoveSiteRule {
        /// The site (host).
        site: String,
    },
    /// Reload history, bookmarks, identities and approvals.
    LoadLists,
    /// Make a new identity.
    CreateIdentity {
        /// What to make.
        new: NewIdentity,
        /// Where to go with it (tab id, URL).
        then: Option<(u64, String)>,
    },
    /// Import an identity made elsewhere.
    ImportIdentity {
        /// The certificate file, as typed (`~` is the home directory).
        cert: String,
        /// The key file, as typed.
        key: String,
        /// Where it applies.
        scope: Scope,
    },
    /// Allow or forbid agents to use an identity.
    SetAgentUse {
        /// The identity.
        fingerprint: String,
        /// Allowed.
        allowed: bool,
    },
    /// Write an identity's certificate and key out.
    ExportIdentity {
        /// The identity.
        fingerprint: String,
    },
    /// Delete an identity and its key.
    DeleteIdentity {
        /// The identity.
        fingerprint: String,
    },
    /// Pin a certificate the user accepted.
    Pin {
        /// The host.
        host: String,
        /// Its port.
        port: u16,
        /// The certificate's fingerprint.
        fingerprint: String,
        /// Its expiry.
        not_after: String,
    },
    /// Forget a pinned certificate.
    Forget {
        /// The host.
        host: String,
        /// Its port.
        port: u16,
    },
    /// Approve an agent's request.
    Approve {
        /// Its id.
        id: String,
    },
    /// Deny an agent's request.
    Deny {
        /// Its id.
        id: String,
    },
    /// Share a page with agents.
    Share {
        /// The page (its query is dropped by the store).
        url: String,
        /// Its title.
        title: Option<String>,
        /// The person's note.
        note: Option<String>,
    },
    /// Stop sharing a page.
    Unshare {
        /// Its id.
        id: String,
    },
    /// Queue a page that is not kept for the next `smolweb sync` (working offline).
    QueueSync {
        /// The page (never with a query).
        url: String,
        /// The page it was linked from.
        from: Option<String>,
    },
    /// Put links at the end of the tour (the store says which it refused, and why).
    TourAdd {
        /// The links, in order.
        links: Vec<smolweb_store::tour::NewStop>,
    },
    /// Take the next link off the tour (answered by [`Msg::TourNext`]).
    TourNext,
    /// Take one link off the tour.
    TourRemove {
        /// The link.
        url: String,
    },
    /// Take every link off the tour.
    TourClear,
    /// Drop an agent's suggestion (opened or dismissed).
    TakeSuggestion {
        /// Its id.
        id: String,
        /// Opened (the message says so) rather than dismissed.
        opened: bool,
    },
}

/// Something the shell must do.
#[derive(Clone, Debug)]
pub enum Effect {
    /// Fetch a URL.
    Fetch {
        /// The request id its answer carries.
        id: u64,
        /// The URL.
        url: String,
        /// How.
        opts: FetchOptions,
    },
    /// Stop a fetch.
    Cancel {
        /// Its request id.
        id: u64,
    },
    /// Fetch an inline picture through the client (its guard, TOFU and body limits), then
    /// decode it off the UI thread (the answer is a [`Msg::Picture`]).
    FetchPicture {
        /// Its URL.
        key: String,
    },
    /// Decode a picture off the UI thread (the answer is a [`Msg::Picture`]).
    DecodePicture {
        /// Its URL.
        key: String,
        /// The image answer.
        page: Arc<Page>,
    },
    /// Hand a URL to the external program (http(s) and mailto only).
    OpenExternal {
        /// The URL.
        url: String,
    },
    /// Save a download to the downloads directory.
    Save {
        /// What was downloaded.
        page: Arc<Page>,
        /// The file name.
        name: String,
    },
    /// Save a download, then open it with the program for its type.
    Open {
        /// What was downloaded.
        page: Arc<Page>,
        /// The file name.
        name: String,
    },
    /// A store change or read.
    Store(StoreOp),
    /// Put text on the clipboard through the terminal (OSC 52).
    Copy {
        /// The text.
        text: String,
    },
    /// Leave the browser.
    Quit,
    /// Turn the work-offline mode on or off in the client (no request leaves while on).
    WorkOffline(bool),
    /// Subscribe, refresh, save for offline (see [`super::FeedOp`]).
    Feeds(super::FeedOp),
    /// Hand the terminal to `$VISUAL`/`$EDITOR` on a private temporary file holding
    /// `initial`; answered by [`Msg::Edited`]. Only for answers that may touch a file (never
    /// a sensitive one).
    EditText {
        /// What the text is for (given back with the answer).
        purpose: super::Purpose,
        /// The text the file starts with.
        initial: String,
    },
    /// Read a file to upload (`~` expanded, at most `max` bytes); answered by
    /// [`Msg::UploadFile`].
    ReadUploadFile {
        /// The path as typed.
        path: String,
        /// The most it may hold.
        max: u64,
    },
    /// Upload with Titan on a worker; answered by [`Msg::Fetched`] with this id (the token
    /// it carries is sent, never logged: its `Debug` hides it).
    Upload {
        /// The request id its answer carries.
        id: u64,
        /// What to send.
        upload: Box<smolweb_client::smallnet::Upload>,
    },
}
