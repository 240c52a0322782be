;;; movie-rpc.el --- Browse the movie-rpc catalog: movies, favorites, activity  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The movie-rpc authors

;; Author: The movie-rpc authors
;; Version: 0.2.0
;; Package-Requires: ((emacs "27.1") (jsonrpc "1.0.9"))
;; Keywords: multimedia, comm, tools
;; SPDX-License-Identifier: Apache-2.0

;; Licensed under the Apache License, Version 2.0 (the "License");
;; you may not use this file except in compliance with the License.
;; You may obtain a copy of the License at
;;
;;     http://www.apache.org/licenses/LICENSE-2.0
;;
;; Unless required by applicable law or agreed to in writing, software
;; distributed under the License is distributed on an "AS IS" BASIS,
;; WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
;; See the License for the specific language governing permissions and
;; limitations under the License.

;;; Commentary:

;; A front end for movie-rpc, the movie catalog server (TMDB with an
;; offline cache and an embedded demo catalog, accounts, favorites and
;; an activity log) that editors drive over stdio with JSON-RPC 2.0.
;;
;; The server is started on the first command through the built-in
;; `jsonrpc' library (Content-Length framing), one process per Emacs;
;; every request is asynchronous, so the editor never waits for it.
;;
;;   M-x movie-rpc-popular     popular movies, a page at a time
;;   M-x movie-rpc-genres      pick one of the genres, list its movies
;;   M-x movie-rpc-search      search by title
;;   M-x movie-rpc-latest      the newest TMDB record
;;   M-x movie-rpc-details     one movie by id
;;   M-x movie-rpc-favorites   your favorites (after a login)
;;   M-x movie-rpc-login, movie-rpc-register, movie-rpc-logout
;;   M-x movie-rpc-sync        save the catalog for offline use
;;   M-x movie-rpc-events      the activity log
;;
;; In a list: RET details, f toggles a favorite, n / p change page,
;; g refreshes, q quits.  Without TMDB credentials in
;; `movie-rpc-environment' the demo catalog answers, offline.
;;
;; Setup, with the package directory on `load-path':
;;
;;   (add-to-list 'load-path "/path/to/movie-rpc/clients/emacs")
;;   (require 'movie-rpc)
;;   (setq movie-rpc-command "/path/to/movie-rpc")

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'seq)
(require 'subr-x)
(require 'tabulated-list)

(defgroup movie-rpc nil
  "Browse the movie-rpc catalog."
  :group 'applications
  :prefix "movie-rpc-")

(defcustom movie-rpc-command "movie-rpc"
  "The movie-rpc server: a program on variable `exec-path' or a file name."
  :type 'string)

(defcustom movie-rpc-arguments nil
  "Extra arguments for the server, e.g. (\"--log-level\" \"error\")."
  :type '(repeat string))

(defcustom movie-rpc-environment nil
  "Environment variables for the server, as (NAME . VALUE) pairs.
For example ((\"MOVIE_RPC_HOME\" . \"/tmp/movies\")).  Add
\"TMDB_ACCESS_TOKEN\" for the live catalog.  They are added to the
environment of Emacs."
  :type '(alist :key-type string :value-type string))

(defcustom movie-rpc-region nil
  "ISO 3166-1 region, e.g. \"US\": the providers and certification shown."
  :type '(choice (const :tag "None" nil) string))

(defcustom movie-rpc-language nil
  "Language of catalog text, e.g. \"de-DE\"; nil for the server's default."
  :type '(choice (const :tag "Server default" nil) string))

(defcustom movie-rpc-title-width 44
  "Width of the title column in movie lists."
  :type 'integer)

(defconst movie-rpc--details-include ["credits" "videos" "watchProviders" "releaseDates"]
  "The parts the details buffer asks `movies.details' to add.")

(defconst movie-rpc--error-codes
  '((method-not-found . -32601) (invalid-params . -32602) (login-required . -32011)
    (already-favorite . -32020) (not-found . -32021) (unavailable-in-demo . -32034))
  "The JSON-RPC error codes this package treats specially.")

(defvar movie-rpc--connection nil
  "The jsonrpc connection to the server, or nil before the first command.")

(defvar movie-rpc--include-refused nil
  "Non-nil when the running server refused `include' in `movies.details'.")

(defvar movie-rpc--progress-handlers (make-hash-table :test #'equal)
  "Progress token -> function called with each `$/progress' value.")

(defvar movie-rpc--token-counter 0
  "The last progress token number handed out.")

(defvar movie-rpc--genres nil
  "The genres of the running server, a list of (ID . NAME), once fetched.")

;;;; The connection

(defun movie-rpc--code (name)
  "The JSON-RPC error code called NAME in `movie-rpc--error-codes'."
  (alist-get name movie-rpc--error-codes))

(defun movie-rpc--sanitize (text)
  "TEXT as one drawable line: control characters become spaces.
The server passes catalog text on as TMDB sent it; a newline or NUL in a
title would break a list's lines."
  (if (stringp text)
      (replace-regexp-in-string "[\0-\37\177\200-\237]" " " text t t)
    (if text (format "%s" text) "")))

(defun movie-rpc--on-notification (_connection method params)
  "Handle the server's notification METHOD with PARAMS."
  (when (eq method '$/progress)
    (let ((handler (gethash (plist-get params :token) movie-rpc--progress-handlers)))
      (when handler
        (funcall handler (plist-get params :value))))))

(defun movie-rpc--on-shutdown (connection)
  "Forget CONNECTION once its process is gone."
  (when (eq connection movie-rpc--connection)
    (setq movie-rpc--connection nil
          movie-rpc--include-refused nil
          movie-rpc--genres nil)))

(defun movie-rpc--start ()
  "Start the server and return the connection."
  (let* ((program (if (file-name-absolute-p movie-rpc-command)
                      movie-rpc-command
                    (executable-find movie-rpc-command))))
    (unless (and program (file-executable-p program))
      (user-error "Cannot start movie-rpc `%s': not an executable (customize `movie-rpc-command')"
                  movie-rpc-command))
    (let* ((process-environment
            (append (mapcar (lambda (pair) (format "%s=%s" (car pair) (cdr pair)))
                            movie-rpc-environment)
                    process-environment))
           (process (make-process
                     :name "movie-rpc"
                     :command (cons program movie-rpc-arguments)
                     :connection-type 'pipe
                     :coding 'utf-8-emacs-unix
                     :noquery t
                     ;; The name jsonrpc.el expects: it hides this buffer and logs the server's
                     ;; stderr lines to its events buffer (another buffer would be killed with the
                     ;; stderr pipe, and the server's next log line would end it).
                     :stderr (get-buffer-create "*movie-rpc stderr*"))))
      (setq movie-rpc--include-refused nil
            movie-rpc--genres nil
            movie-rpc--connection
            (jsonrpc-process-connection
             :name "movie-rpc"
             :process process
             :events-buffer-scrollback-size 0
             :notification-dispatcher #'movie-rpc--on-notification
             :on-shutdown #'movie-rpc--on-shutdown)))))

(defun movie-rpc--connection ()
  "Return the running connection; start the server when there is none."
  (if (and movie-rpc--connection (jsonrpc-running-p movie-rpc--connection))
      movie-rpc--connection
    (movie-rpc--start)))

(defun movie-rpc-stop ()
  "Stop the movie-rpc server (the next command will start it again)."
  (interactive)
  (when movie-rpc--connection
    (let ((connection movie-rpc--connection))
      (setq movie-rpc--connection nil)
      (ignore-errors (jsonrpc-shutdown connection t)))))

(defun movie-rpc--error-message (error)
  "A human message for the JSON-RPC ERROR plist (code, message, data)."
  (let* ((message (or (plist-get error :message) (format "error %s" (plist-get error :code))))
         (data (plist-get error :data))
         (fields (and (listp data) (plist-get data :fields))))
    (cond ((and fields (> (length fields) 0))
           (format "%s: %s" message
                   (mapconcat (lambda (field) (format "%s %s" (plist-get field :field)
                                                      (plist-get field :problem)))
                              fields "; ")))
          ((and (listp data) (stringp (plist-get data :field))
                (not (string-match-p (regexp-quote (plist-get data :field)) message)))
           (format "%s (%s)" message (plist-get data :field)))
          (t message))))

(defun movie-rpc--report (error)
  "Show the JSON-RPC ERROR in the echo area."
  (message "movie-rpc: %s" (movie-rpc--sanitize (movie-rpc--error-message error))))

(cl-defun movie-rpc--request (method params on-result &key on-error (timeout 30))
  "Send METHOD (a string) with PARAMS (a plist or nil) without waiting.
ON-RESULT is called with the result; ON-ERROR with the error plist,
else the error is shown in the echo area.  TIMEOUT is in seconds."
  (jsonrpc-async-request
   (movie-rpc--connection) (intern method) params
   :success-fn on-result
   :error-fn (lambda (error) (funcall (or on-error #'movie-rpc--report) error))
   :timeout-fn (lambda () (message "movie-rpc: no answer to %s in %d s" method timeout))
   :timeout timeout))

(defun movie-rpc--params (&rest plist)
  "PLIST without the members whose value is nil."
  (let (kept)
    (while plist
      (when (cadr plist)
        (setq kept (nconc kept (list (car plist) (cadr plist)))))
      (setq plist (cddr plist)))
    kept))

;;;; Formatting

(defun movie-rpc--year (date)
  "The year of DATE (YYYY-MM-DD), or \"----\"."
  (if (and (stringp date) (string-match "\\`[0-9]\\{4\\}" date)) (match-string 0 date) "----"))

(defun movie-rpc--rating (value)
  "VALUE as a rating with one decimal, or \"-\"."
  (if (numberp value) (format "%.1f" value) "-"))

(defun movie-rpc--provenance (answer)
  "\"cache\", \"stale\", both or \"\" for the catalog ANSWER's source and age."
  (string-join (delq nil (list (and (equal (plist-get answer :source) "cache") "cache")
                               (and (eq (plist-get answer :stale) t) "stale")))
               " "))

(defun movie-rpc--seq (value)
  "VALUE as a list (JSON arrays arrive as vectors)."
  (if (vectorp value) (append value nil) (and (listp value) value)))

(defun movie-rpc--cast-text (credits limit)
  "The LIMIT top-billed cast members of CREDITS, or nil."
  (let* ((cast (sort (copy-sequence (movie-rpc--seq (plist-get credits :cast)))
                     (lambda (a b) (< (or (plist-get a :order) most-positive-fixnum)
                                      (or (plist-get b :order) most-positive-fixnum)))))
         (names (delq nil (mapcar (lambda (member)
                                    (let ((name (plist-get member :name))
                                          (character (plist-get member :character)))
                                      (cond ((not (and (stringp name) (> (length name) 0))) nil)
                                            ((and (stringp character) (> (length character) 0))
                                             (format "%s (%s)" name character))
                                            (t name))))
                                  (seq-take cast limit)))))
    (and names (string-join names ", "))))

(defun movie-rpc--directors-text (credits)
  "The directors in CREDITS' crew, or nil."
  (let ((names (delq nil (mapcar (lambda (member)
                                   (and (equal (plist-get member :job) "Director")
                                        (plist-get member :name)))
                                 (movie-rpc--seq (plist-get credits :crew))))))
    (and names (string-join names ", "))))

(defun movie-rpc--trailer-url (videos)
  "The URL of the first trailer among VIDEOS that has one, or nil."
  (cl-loop for video in (movie-rpc--seq videos)
           when (and (equal (plist-get video :type) "Trailer")
                     (stringp (plist-get video :url)))
           return (plist-get video :url)))

(defun movie-rpc--region-providers (providers region)
  "The providers of REGION in a `watchProviders' answer PROVIDERS, or nil.
PROVIDERS is one region's object or all of them keyed by region."
  (cond ((not (and region (listp providers))) nil)
        ((cl-some (lambda (key) (plist-member providers key)) '(:flatrate :rent :buy :free :ads))
         (and (member (plist-get providers :region) (list nil region)) providers))
        (t (or (plist-get providers (intern (concat ":" region)))
               (plist-get (plist-get providers :results) (intern (concat ":" region)))))))

(defun movie-rpc--providers-text (providers region)
  "\"Stream: A, B · Rent: C\" for REGION in PROVIDERS, or nil."
  (let* ((found (movie-rpc--region-providers providers region))
         (parts (and found
                     (delq nil (mapcar (lambda (kind)
                                         (let ((names (delq nil (mapcar (lambda (p) (plist-get p :name))
                                                                        (movie-rpc--seq
                                                                         (plist-get found (car kind)))))))
                                           (and names (format "%s: %s" (cdr kind) (string-join names ", ")))))
                                       '((:flatrate . "Stream") (:free . "Free") (:ads . "With ads")
                                         (:rent . "Rent") (:buy . "Buy")))))))
    (and parts (string-join parts " · "))))

;;;; The details buffer

(defvar movie-rpc-details-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "f") #'movie-rpc-details-toggle-favorite)
    map)
  "Keys of `movie-rpc-details-mode'.")

(define-derived-mode movie-rpc-details-mode special-mode "Movie"
  "A movie's details, as a help buffer shows them.
\\{movie-rpc-details-mode-map}")

(defvar-local movie-rpc--details-movie nil
  "The `movies.details' answer the details buffer shows.")

(defun movie-rpc--insert-field (label value)
  "Insert LABEL and VALUE on a line of their own when VALUE is non-empty."
  (when (and value (not (equal value "")))
    (insert (propertize (concat label ": ") 'face 'bold) (movie-rpc--sanitize value) "\n")))

(defun movie-rpc--show-details (details)
  "Show the `movies.details' (or `movies.latest') answer DETAILS."
  (with-current-buffer (get-buffer-create "*movie-rpc details*")
    (let ((inhibit-read-only t))
      (erase-buffer)
      (movie-rpc-details-mode)
      (setq movie-rpc--details-movie details)
      (insert (propertize (format "%s (%s)" (movie-rpc--sanitize (plist-get details :title))
                                  (movie-rpc--year (plist-get details :releaseDate)))
                          'face 'bold)
              "\n\n")
      (movie-rpc--insert-field "Rating" (format "%s/10 (%s votes)" (movie-rpc--rating (plist-get details :voteAverage))
                                                (or (plist-get details :voteCount) 0)))
      (let ((runtime (plist-get details :runtime)))
        (movie-rpc--insert-field "Runtime" (and (numberp runtime) (> runtime 0) (format "%d min" runtime))))
      (movie-rpc--insert-field "Genres" (string-join (mapcar (lambda (g) (plist-get g :name))
                                                             (movie-rpc--seq (plist-get details :genres)))
                                                     ", "))
      (movie-rpc--insert-field "Released" (plist-get details :releaseDate))
      (movie-rpc--insert-field "Tagline" (plist-get details :tagline))
      (let ((certification (plist-get details :certification)))
        (movie-rpc--insert-field "Rated" (and (stringp certification) (> (length certification) 0)
                                              (format "%s (%s)" certification movie-rpc-region))))
      (movie-rpc--insert-field "Director" (movie-rpc--directors-text (plist-get details :credits)))
      (movie-rpc--insert-field "Cast" (movie-rpc--cast-text (plist-get details :credits) 5))
      (movie-rpc--insert-field "Trailer" (movie-rpc--trailer-url (plist-get details :videos)))
      (movie-rpc--insert-field (format "Watch (%s)" movie-rpc-region)
                               (movie-rpc--providers-text (plist-get details :watchProviders) movie-rpc-region))
      (let ((marks (movie-rpc--provenance details)))
        (movie-rpc--insert-field "Source" (and (> (length marks) 0) marks)))
      (insert "\n")
      (let ((start (point))
            (overview (plist-get details :overview)))
        (insert (if (and (stringp overview) (> (length overview) 0))
                    (replace-regexp-in-string "[\0-\11\13-\37\177]" " " overview t t)
                  "(no overview)")
                "\n")
        (let ((fill-column 72)) (fill-region start (point))))
      (goto-char (point-min)))
    (pop-to-buffer (current-buffer))))

(defun movie-rpc--include-refused-p (error)
  "Non-nil when ERROR means the server or catalog does not offer `include'.
That is an older server (the param or method is unknown) or the demo
catalog, which has no credits, videos or providers."
  (let* ((code (plist-get error :code))
         (data (plist-get error :data))
         (field (and (listp data) (plist-get data :field))))
    (or (memql code (list (movie-rpc--code 'method-not-found) (movie-rpc--code 'unavailable-in-demo)))
        (and (eql code (movie-rpc--code 'invalid-params)) (stringp field)
             (or (string-prefix-p "include" field) (equal field "region"))))))

(defun movie-rpc--details (movie-id)
  "Fetch and show the details of MOVIE-ID, with cast, trailer and providers if any."
  (let ((plain (movie-rpc--params :movieId movie-id :language movie-rpc-language)))
    (if movie-rpc--include-refused
        (movie-rpc--request "movies.details" plain #'movie-rpc--show-details)
      (movie-rpc--request
       "movies.details" (append plain (movie-rpc--params :include movie-rpc--details-include
                                                          :region movie-rpc-region))
       #'movie-rpc--show-details
       :on-error (lambda (error)
                   (if (not (movie-rpc--include-refused-p error))
                       (movie-rpc--report error)
                     (setq movie-rpc--include-refused t)
                     (movie-rpc--request "movies.details" plain #'movie-rpc--show-details)))))))

(defun movie-rpc-details-toggle-favorite ()
  "Add the movie shown to the favorites, or remove it."
  (interactive)
  (when movie-rpc--details-movie
    (let ((id (plist-get movie-rpc--details-movie :id)))
      (movie-rpc--request
       "favorites.contains" (list :movieIds (vector id))
       (lambda (result)
         (movie-rpc--toggle-favorite
          id (eq (plist-get (plist-get result :contains) (intern (format ":%d" id))) t) nil))))))

;;;; Lists

(defvar movie-rpc-list-mode-map
  (let ((map (make-sparse-keymap)))
    (set-keymap-parent map tabulated-list-mode-map)
    (define-key map (kbd "RET") #'movie-rpc-list-open)
    (define-key map (kbd "f") #'movie-rpc-list-toggle-favorite)
    (define-key map (kbd "n") #'movie-rpc-list-next-page)
    (define-key map (kbd "p") #'movie-rpc-list-previous-page)
    (define-key map (kbd "g") #'movie-rpc-list-refresh)
    (define-key map (kbd "q") #'quit-window)
    map)
  "Keys of `movie-rpc-list-mode'.")

(define-derived-mode movie-rpc-list-mode tabulated-list-mode "Movies"
  "A list of movies or events from movie-rpc.
\\{movie-rpc-list-mode-map}"
  (setq tabulated-list-padding 1)
  (add-hook 'tabulated-list-revert-hook #'movie-rpc-list-refresh nil t))

(defvar-local movie-rpc--view nil
  "What the list shows: a plist.
Its members are :kind, :method, :params, :page, :answer, :hearts and :title.")

(defun movie-rpc--movie-entry (movie hearts)
  "The `tabulated-list-entries' row of MOVIE; HEARTS maps ids to favorite."
  (list (plist-get movie :id)
        (vector (movie-rpc--sanitize (plist-get movie :title))
                (movie-rpc--year (plist-get movie :releaseDate))
                (movie-rpc--rating (plist-get movie :voteAverage))
                (if (gethash (plist-get movie :id) hearts) "♥" "")
                (movie-rpc--provenance movie))))

(defun movie-rpc--event-entry (event)
  "The `tabulated-list-entries' row of EVENT."
  (let* ((params (plist-get event :params))
         (text (cl-loop for (key value) on params by #'cddr
                        collect (format "%s=%s" (substring (symbol-name key) 1)
                                        (if (vectorp value) (mapconcat (lambda (v) (format "%s" v)) value ",")
                                          value)))))
    (list (plist-get event :id)
          (vector (movie-rpc--sanitize (plist-get event :timestamp))
                  (movie-rpc--sanitize
                   (let ((repeats (plist-get event :repeats)))
                     ;; A run of the same event: how many times it happened.
                     (if (and (integerp repeats) (> repeats 1))
                         (format "%s ×%d" (plist-get event :name) repeats)
                       (plist-get event :name))))
                  (movie-rpc--sanitize (string-join text " "))))))

(defun movie-rpc--render (buffer)
  "Draw the list BUFFER from its view."
  (with-current-buffer buffer
    (let* ((view movie-rpc--view)
           (answer (plist-get view :answer)))
      (if (eq (plist-get view :kind) 'events)
          (setq tabulated-list-format [("Time" 24 t) ("Event" 22 t) ("Params" 0 nil)]
                tabulated-list-entries (mapcar #'movie-rpc--event-entry
                                               (movie-rpc--seq (plist-get answer :events))))
        (setq tabulated-list-format (vector (list "Title" movie-rpc-title-width t) '("Year" 5 t)
                                            '("Rating" 7 t) '("♥" 2 t) '("Source" 0 nil))
              tabulated-list-entries
              (mapcar (lambda (movie) (movie-rpc--movie-entry movie (plist-get view :hearts)))
                      (plist-get view :movies))))
      (tabulated-list-init-header)
      (tabulated-list-print t)
      ;; The title line (what, which page, where from) above the rows; the column names are in
      ;; the header line.
      (save-excursion
        (goto-char (point-min))
        (let ((inhibit-read-only t))
          (insert (propertize (movie-rpc--sanitize (movie-rpc--header view)) 'face 'bold) "\n")))
      (when (= (line-number-at-pos) 1)
        (forward-line 1)))))

(defun movie-rpc--header (view)
  "The header line of VIEW: its title, page and provenance."
  (let ((answer (plist-get view :answer)))
    (pcase (plist-get view :kind)
      ('movies (format "%s · page %s/%s · %s movies %s" (plist-get view :title) (plist-get answer :page)
                       (plist-get answer :totalPages) (plist-get answer :totalResults)
                       (movie-rpc--provenance answer)))
      ('events (format "%s · page %d%s" (plist-get view :title) (plist-get view :page)
                       (if (plist-get answer :nextCursor) "" " (last)")))
      (_ (format "%s · %d" (plist-get view :title) (length (plist-get view :movies)))))))

(defun movie-rpc--hearts (movies callback)
  "Call CALLBACK with a hash table of the MOVIES that are favorites.
One `favorites.contains' for the page; nobody logged in means none."
  (let ((hearts (make-hash-table)))
    (if (null movies)
        (funcall callback hearts)
      (movie-rpc--request
       "favorites.contains" (list :movieIds (vconcat (mapcar (lambda (m) (plist-get m :id)) movies)))
       (lambda (result)
         (cl-loop for (key value) on (plist-get result :contains) by #'cddr
                  when (eq value t)
                  do (puthash (string-to-number (substring (symbol-name key) 1)) t hearts))
         (funcall callback hearts))
       :on-error (lambda (_error) (funcall callback hearts))))))

(defun movie-rpc--load (buffer page)
  "Load PAGE of BUFFER's view and draw it."
  (with-current-buffer buffer
    (let ((view movie-rpc--view))
      (pcase (plist-get view :kind)
        ('movies
         (movie-rpc--request
          (plist-get view :method) (append (list :page page) (plist-get view :params))
          (lambda (answer)
            (let ((movies (movie-rpc--seq (plist-get answer :results))))
              (movie-rpc--hearts
               movies (lambda (hearts)
                        (when (buffer-live-p buffer)
                          (with-current-buffer buffer
                            (setq movie-rpc--view (plist-put (plist-put (plist-put view :answer answer)
                                                                        :movies movies)
                                                             :hearts hearts)))
                          (movie-rpc--render buffer))))))
          :on-error (lambda (error)
                      (if (eql (plist-get error :code) (movie-rpc--code 'method-not-found))
                          (message "movie-rpc: this server does not offer %s yet; a newer movie-rpc has it"
                                   (plist-get view :method))
                        (movie-rpc--report error)))))
        ('favorites
         (movie-rpc--request
          "favorites.list" nil
          (lambda (answer)
            (let ((movies (mapcar (lambda (f) (plist-get f :movie))
                                  (movie-rpc--seq (plist-get answer :favorites))))
                  (hearts (make-hash-table)))
              (dolist (movie movies) (puthash (plist-get movie :id) t hearts))
              (when (buffer-live-p buffer)
                (with-current-buffer buffer
                  (setq movie-rpc--view (plist-put (plist-put (plist-put view :answer answer) :movies movies)
                                                   :hearts hearts)))
                (movie-rpc--render buffer))))
          :on-error (lambda (error)
                      (if (not (eql (plist-get error :code) (movie-rpc--code 'login-required)))
                          (movie-rpc--report error)
                        (when (buffer-live-p buffer)
                          (with-current-buffer buffer
                            (setq movie-rpc--view (plist-put (plist-put view :movies nil)
                                                             :title "Favorites (not logged in: M-x movie-rpc-login)")))
                          (movie-rpc--render buffer))))))
        ('events
         (let ((cursor (nth (1- page) (plist-get view :cursors))))
           (movie-rpc--request
            (plist-get view :method) (append (plist-get view :params) (movie-rpc--params :cursor cursor))
            (lambda (answer)
              (when (buffer-live-p buffer)
                (with-current-buffer buffer
                  (let ((cursors (seq-take (plist-get view :cursors) page)))
                    (setq movie-rpc--view
                          (plist-put (plist-put (plist-put view :answer answer) :page page)
                                     :cursors (append cursors (list (plist-get answer :nextCursor)))))))
                (movie-rpc--render buffer))))))))))

(defun movie-rpc--open-list (name view)
  "Show the list buffer NAME with VIEW and load its first page."
  (let ((buffer (get-buffer-create name)))
    (with-current-buffer buffer
      (movie-rpc-list-mode)
      (setq movie-rpc--view (append view (list :hearts (make-hash-table) :movies nil :page 1
                                               :cursors (list nil))))
      (setq tabulated-list-entries nil)
      (movie-rpc--render buffer))
    (pop-to-buffer buffer)
    (movie-rpc--load buffer 1)
    buffer))

(defun movie-rpc-list-open ()
  "Show the details of the movie (or event) at point."
  (interactive)
  (let ((id (tabulated-list-get-id)))
    (cond ((null id) (user-error "No movie on this line"))
          ((eq (plist-get movie-rpc--view :kind) 'events)
           (movie-rpc--request "events.get" (list :id id)
                               (lambda (event) (message "%s" (movie-rpc--sanitize (format "%S" event))))))
          (t (movie-rpc--details id)))))

(defun movie-rpc--toggle-favorite (movie-id was-favorite buffer)
  "Add MOVIE-ID to the favorites, or remove it when WAS-FAVORITE.
BUFFER, a list, is redrawn with the new heart; without one, every
open list is reloaded."
  (let ((method (if was-favorite "favorites.remove" "favorites.add")))
    (cl-flet ((set-heart (favorite)
                (if (not (buffer-live-p buffer))
                    (movie-rpc--refresh-lists)  ; from the details buffer: every list asks again
                  (with-current-buffer buffer
                    (if favorite
                        (puthash movie-id t (plist-get movie-rpc--view :hearts))
                      (remhash movie-id (plist-get movie-rpc--view :hearts))))
                  (movie-rpc--render buffer))
                (message "movie-rpc: %s" (if favorite "added to your favorites ♥" "removed from your favorites"))))
      (movie-rpc--request
       method (list :movieId movie-id)
       (lambda (_result) (set-heart (not was-favorite)))
       :on-error (lambda (error)
                   (let ((code (plist-get error :code)))
                     (cond ((and (not was-favorite) (eql code (movie-rpc--code 'already-favorite))) (set-heart t))
                           ((and was-favorite (eql code (movie-rpc--code 'not-found))) (set-heart nil))
                           (t (movie-rpc--report error)))))))))

(defun movie-rpc-list-toggle-favorite ()
  "Add the movie at point to the favorites, or remove it."
  (interactive)
  (let ((id (tabulated-list-get-id)))
    (unless (and id (not (eq (plist-get movie-rpc--view :kind) 'events)))
      (user-error "No movie on this line"))
    (movie-rpc--toggle-favorite id (gethash id (plist-get movie-rpc--view :hearts)) (current-buffer))))

(defun movie-rpc--turn-page (delta)
  "Load the page DELTA pages away from the current one."
  (let* ((view movie-rpc--view)
         (answer (plist-get view :answer)))
    (pcase (plist-get view :kind)
      ('movies
       (let ((target (+ (or (plist-get answer :page) 1) delta)))
         (cond ((< target 1) (message "movie-rpc: already on the first page"))
               ((> target (max 1 (or (plist-get answer :totalPages) 1)))
                (message "movie-rpc: already on the last page"))
               (t (movie-rpc--load (current-buffer) target)))))
      ('events
       (cond ((and (> delta 0) (not (plist-get answer :nextCursor))) (message "movie-rpc: no older events"))
             ((and (< delta 0) (<= (plist-get view :page) 1)) (message "movie-rpc: already on the newest events"))
             (t (movie-rpc--load (current-buffer) (+ (plist-get view :page) delta)))))
      (_ (message "movie-rpc: favorites fit on one page")))))

(defun movie-rpc-list-next-page ()
  "Show the next page."
  (interactive)
  (movie-rpc--turn-page 1))

(defun movie-rpc-list-previous-page ()
  "Show the previous page."
  (interactive)
  (movie-rpc--turn-page -1))

(defun movie-rpc-list-refresh ()
  "Load the page shown again."
  (interactive)
  (movie-rpc--load (current-buffer) (or (plist-get (plist-get movie-rpc--view :answer) :page)
                                        (plist-get movie-rpc--view :page) 1)))

;;;; Commands

;;;###autoload
(defun movie-rpc-popular (&optional page)
  "List popular movies, starting at PAGE (the prefix argument) or 1."
  (interactive (list (and current-prefix-arg (prefix-numeric-value current-prefix-arg))))
  (let ((buffer (movie-rpc--open-list "*movie-rpc popular*"
                                      (list :kind 'movies :method "movies.popular" :title "Popular movies"
                                            :params (movie-rpc--params :language movie-rpc-language
                                                                       :region movie-rpc-region)))))
    (when (and page (> page 1))
      (movie-rpc--load buffer page))
    buffer))

(defun movie-rpc--open-genre (id name)
  "List the movies of the genre ID called NAME."
  (movie-rpc--open-list (format "*movie-rpc %s*" name)
                        (list :kind 'movies :method "movies.byGenre" :title (concat name " movies")
                              :params (movie-rpc--params :genreId id :language movie-rpc-language))))

;;;###autoload
(defun movie-rpc-genres ()
  "Pick a genre with `completing-read', then list its movies."
  (interactive)
  (movie-rpc--request
   "genres.list" (movie-rpc--params :language movie-rpc-language)
   (lambda (answer)
     (setq movie-rpc--genres (mapcar (lambda (g) (cons (plist-get g :id) (plist-get g :name)))
                                     (movie-rpc--seq (plist-get answer :genres))))
     ;; Answers arrive in the process filter: ask the user from the command loop instead.
     (run-at-time 0 nil
                  (lambda ()
                    (let* ((names (mapcar (lambda (g) (cons (movie-rpc--sanitize (cdr g)) (car g)))
                                          movie-rpc--genres))
                           (choice (completing-read "Genre: " names nil t)))
                      (when-let ((id (cdr (assoc choice names))))
                        (movie-rpc--open-genre id choice))))))))

;;;###autoload
(defun movie-rpc-search (query)
  "List the movies whose title matches QUERY (`movies.search')."
  (interactive (list (read-string "Search movies: ")))
  (when (string-empty-p (string-trim query))
    (user-error "The search needs a query"))
  (movie-rpc--open-list (format "*movie-rpc search: %s*" (string-trim query))
                        (list :kind 'movies :method "movies.search"
                              :title (format "Search \"%s\"" (string-trim query))
                              :params (movie-rpc--params :query (string-trim query)
                                                         :language movie-rpc-language
                                                         :region movie-rpc-region))))

;;;###autoload
(defun movie-rpc-latest ()
  "Show the newest TMDB record (often a near-empty stub)."
  (interactive)
  (movie-rpc--request "movies.latest" (movie-rpc--params :language movie-rpc-language)
                      #'movie-rpc--show-details))

;;;###autoload
(defun movie-rpc-details (movie-id)
  "Show the details of the movie MOVIE-ID."
  (interactive (list (read-number "Movie id: ")))
  (unless (and (integerp movie-id) (> movie-id 0))
    (user-error "A movie id is a positive integer"))
  (movie-rpc--details movie-id))

;;;###autoload
(defun movie-rpc-favorites ()
  "List your favorites, newest first (needs a login)."
  (interactive)
  (movie-rpc--open-list "*movie-rpc favorites*" (list :kind 'favorites :title "Favorites")))

;;;###autoload
(defun movie-rpc-events (&optional query)
  "List the activity log, newest first; with QUERY, only matching events."
  (interactive (list (let ((text (read-string "Events matching (empty for all): ")))
                       (and (not (string-empty-p text)) text))))
  (movie-rpc--open-list "*movie-rpc events*"
                        (if query
                            (list :kind 'events :method "events.search" :title (format "Events matching \"%s\"" query)
                                  :params (list :query query :limit 50))
                          (list :kind 'events :method "events.list" :title "Events" :params (list :limit 50)))))

(defun movie-rpc--signed-in (answer)
  "Report the login ANSWER and redraw the hearts of open lists."
  (let ((user (plist-get answer :user)))
    (message "movie-rpc: logged in as %s" (movie-rpc--sanitize (plist-get user :email))))
  (movie-rpc--refresh-lists))

(defun movie-rpc--refresh-lists ()
  "Reload every open movie list (hearts change with the user)."
  (dolist (buffer (buffer-list))
    (with-current-buffer buffer
      (when (and (derived-mode-p 'movie-rpc-list-mode) (memq (plist-get movie-rpc--view :kind) '(movies favorites)))
        (movie-rpc-list-refresh)))))

;;;###autoload
(defun movie-rpc-login (email password)
  "Log in as EMAIL with PASSWORD (read with `read-passwd')."
  (interactive (list (read-string "Email: ") (read-passwd "Password: ")))
  (movie-rpc--request "auth.login" (list :email email :password password) #'movie-rpc--signed-in))

;;;###autoload
(defun movie-rpc-register (email password)
  "Create an account for EMAIL with PASSWORD and log in."
  (interactive (list (read-string "Email: ") (read-passwd "Password: " t)))
  (movie-rpc--request "auth.register" (list :email email :password password :passwordConfirmation password)
                      #'movie-rpc--signed-in))

;;;###autoload
(defun movie-rpc-logout ()
  "Log out."
  (interactive)
  (movie-rpc--request "auth.logout" nil
                      (lambda (_answer)
                        (message "movie-rpc: logged out")
                        (movie-rpc--refresh-lists))))

;;;###autoload
(defun movie-rpc-sync (&optional pages)
  "Save the genres and PAGES popular pages (default 3) for offline use.
Progress is shown in the echo area as it arrives."
  (interactive (list (and current-prefix-arg (prefix-numeric-value current-prefix-arg))))
  (let ((token (format "movie-rpc-emacs-%d-%d" (emacs-pid) (cl-incf movie-rpc--token-counter))))
    (puthash token (lambda (value)
                     (message "movie-rpc: sync %s/%s %s" (plist-get value :done) (plist-get value :total)
                              (movie-rpc--sanitize (plist-get value :message))))
             movie-rpc--progress-handlers)
    (message "movie-rpc: syncing the catalog…")
    (movie-rpc--request
     "catalog.sync" (movie-rpc--params :popularPages pages :progressToken token :language movie-rpc-language)
     (lambda (report)
       (remhash token movie-rpc--progress-handlers)
       (message "movie-rpc: sync done: %s of %s items, %s pages, %s movies (%s)"
                (plist-get report :succeeded) (plist-get report :total) (plist-get report :pages)
                (plist-get report :movies) (plist-get report :source)))
     :on-error (lambda (error)
                 (remhash token movie-rpc--progress-handlers)
                 (movie-rpc--report error))
     :timeout 600)))

(provide 'movie-rpc)
;;; movie-rpc.el ends here
