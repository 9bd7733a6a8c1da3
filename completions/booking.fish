# fish completion for booking.
# Generated from the commander program by scripts/gen-completions.mjs (npm run gen:completions):
# do not edit by hand; `booking completion fish` prints this same text.

# The command path a subcommand word (or alias) leads to from a path.
function __booking_child
    switch "$argv[1]|$argv[2]"
        case '|login'
            echo 'login'
        case '|logout'
            echo 'logout'
        case '|whoami'
            echo 'whoami'
        case '|profiles'
            echo 'profiles'
        case '|auth'
            echo 'auth'
        case '|bookings'
            echo 'bookings'
        case '|event-types'
            echo 'event-types'
        case '|api'
            echo 'api'
        case '|webhook'
            echo 'webhook'
        case '|sandbox'
            echo 'sandbox'
        case '|config'
            echo 'config'
        case '|completion'
            echo 'completion'
        case '|help'
            echo 'help'
        case 'auth|status'
            echo 'auth status'
        case 'auth|help'
            echo 'auth help'
        case 'bookings|list' 'bookings|ls'
            echo 'bookings list'
        case 'bookings|get' 'bookings|view'
            echo 'bookings get'
        case 'bookings|help'
            echo 'bookings help'
        case 'webhook|verify'
            echo 'webhook verify'
        case 'webhook|sign'
            echo 'webhook sign'
        case 'webhook|listen'
            echo 'webhook listen'
        case 'webhook|send'
            echo 'webhook send'
        case 'webhook|help'
            echo 'webhook help'
        case 'config|path'
            echo 'config path'
        case 'config|list'
            echo 'config list'
        case 'config|get'
            echo 'config get'
        case 'config|set'
            echo 'config set'
        case 'config|unset'
            echo 'config unset'
        case 'config|help'
            echo 'config help'
        case '*'
            return 1
    end
end

# The options that take a value at a path (their value is not a positional argument).
function __booking_takes_value
    switch "$argv[1]"
        case ''
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'login'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'logout'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'whoami'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'profiles'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'auth'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'auth status'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'auth help'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'bookings'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'bookings list'
            contains -- $argv[2] '-s' '--status' '-L' '--limit' '--page-size' '--cursor' '--cursor-path' '--items-path' '--cursor-param' '--cursor-from-last' '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'bookings get'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'bookings help'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'event-types'
            contains -- $argv[2] '-L' '--limit' '--cursor-path' '--items-path' '--cursor-param' '--cursor-from-last' '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'api'
            contains -- $argv[2] '-F' '--field' '-L' '--limit' '--cursor' '--cursor-path' '--items-path' '--cursor-param' '--cursor-from-last' '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'webhook'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'webhook verify'
            contains -- $argv[2] '--signature' '--request' '--event' '--secret' '--secret-file' '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'webhook sign'
            contains -- $argv[2] '--secret' '--secret-file' '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'webhook listen'
            contains -- $argv[2] '--port' '--host' '--forward-to' '--save-dir' '--max-saved' '--events' '--secret' '--secret-file' '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'webhook send'
            contains -- $argv[2] '--event' '--body' '--set' '--request' '--secret' '--secret-file' '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'webhook help'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'sandbox'
            contains -- $argv[2] '--port' '--host' '--api-key' '--bookings' '--seed' '--webhook-url' '--webhook-secret' '--tick' '--shape' '--latency' '--fail-rate' '--rate-limit' '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'config'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'config path'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'config list'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'config get'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'config set'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'config unset'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'config help'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'completion'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
        case 'help'
            contains -- $argv[2] '--profile' '--base-url' '-o' '--output' '--jq' '--fields' '--timeout' '--retries' '--max-response-bytes'
    end
end

# Sets __booking_path (the command path typed so far) and __booking_npos (positional words after it).
function __booking_state
    set -g __booking_path ''
    set -g __booking_npos 0
    set -l pending 0
    set -l dashdash 0
    set -l next
    set -l tokens (commandline -opc)
    set -e tokens[1]
    for t in $tokens
        if test $pending = 1
            set pending 0
            continue
        end
        if test $dashdash = 0
            switch $t
                case --
                    set dashdash 1
                    continue
                case '--*=*'
                    continue
                case '-*'
                    __booking_takes_value "$__booking_path" $t; and set pending 1
                    continue
            end
        end
        if test $__booking_npos = 0; and set next (__booking_child "$__booking_path" $t)
            set -g __booking_path $next
        else
            set -g __booking_npos (math $__booking_npos + 1)
        end
    end
end

# __booking_at PATH [N | N+]: the line is at PATH (with exactly N, or at least N, positional words).
function __booking_at
    __booking_state
    test "$__booking_path" = "$argv[1]"; or return 1
    set -q argv[2]; or return 0
    if string match -q -- '*+' $argv[2]
        test $__booking_npos -ge (string trim -r -c + -- $argv[2])
    else
        test $__booking_npos -eq $argv[2]
    end
end

# Profile names live in the user's config, so they are read when TAB is pressed.
function __booking_profiles
    command booking __complete profiles 2>/dev/null
end

complete -c booking -f
complete -c booking -l profile -x -a '(__booking_profiles)' -d 'config profile (env: BOOKING_PROFILE; default: "default")'
complete -c booking -l base-url -x -d 'override the profile\'s base URL (env: BOOKING_BASE_URL)'
complete -c booking -s o -l output -x -a 'table tsv json ndjson' -d 'output format'
complete -c booking -l json -d 'same as -o json; with a comma-separated list, only those fields (as --fields)'
complete -c booking -l jq -x -d 'filter the JSON output with jq\'s language (strings printed raw); implies --json'
complete -c booking -l fields -x -d 'columns for table/tsv, projection for json/ndjson (dot paths, comma-separated)'
complete -c booking -l no-color -d 'turn colour off (also NO_COLOR, TERM=dumb)'
complete -c booking -l timeout -x -d 'per-request timeout in seconds'
complete -c booking -l retries -x -d 'retries of a GET on 429, 502, 503, 504 and lost connections'
complete -c booking -l debug -d 'one line per request and response on stderr (key redacted; also BOOKING_DEBUG=1)'
complete -c booking -s q -l quiet -d 'no progress or hints on stderr'
complete -c booking -l allow-http -d 'permit http:// to a non-loopback host (the key would travel in clear)'
complete -c booking -l max-response-bytes -x -d 'refuse a response body larger than this (bytes, or K/M/G)'
complete -c booking -l no-pager -d 'never page the output on a terminal (also BOOKING_PAGER=)'
complete -c booking -n '__booking_at \'\' 0' -a 'login' -d 'save an API key (and base URL) to the profile, after checking it with GET /api/v1/me'
complete -c booking -n '__booking_at \'\' 0' -a 'logout' -d 'remove the profile\'s saved API key (its base URL stays)'
complete -c booking -n '__booking_at \'\' 0' -a 'whoami' -d 'show the owner of the key (GET /api/v1/me); profile, base URL and key source on stderr'
complete -c booking -n '__booking_at \'\' 0' -a 'profiles' -d 'list the profiles: name, base URL, masked key, and which one is active'
complete -c booking -n '__booking_at \'\' 0' -a 'auth' -d 'the profiles and their keys (auth status = profiles)'
complete -c booking -n '__booking_at \'\' 0' -a 'bookings' -d 'list and show bookings'
complete -c booking -n '__booking_at \'\' 0' -a 'event-types' -d 'list your personal event types'
complete -c booking -n '__booking_at \'\' 0' -a 'api' -d 'GET any path under the base URL with your key (for endpoints the commands do not cover)'
complete -c booking -n '__booking_at \'\' 0' -a 'webhook' -d 'verify, sign, receive and send signed webhook deliveries'
complete -c booking -n '__booking_at \'\' 0' -a 'sandbox' -d 'run a local fake of the service: the four endpoints, paging, and signed webhooks of a simulated booking lifecycle'
complete -c booking -n '__booking_at \'\' 0' -a 'config' -d 'show and change the profile\'s settings (baseUrl, apiKey, cursorPath, itemsPath, cursorParam, cursorFromLast)'
complete -c booking -n '__booking_at \'\' 0' -a 'completion' -d 'print the shell completion script for bash, zsh or fish'
complete -c booking -n '__booking_at \'\' 0' -a 'help' -d 'show the help of a command: booking help bookings list'
complete -c booking -n '__booking_at \'\'' -s V -l version -d 'print the version'
complete -c booking -n '__booking_at \'\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'login\'' -l with-key -d 'read the key from stdin instead of a hidden prompt'
complete -c booking -n '__booking_at \'login\'' -l no-verify -d 'save the key without checking it'
complete -c booking -n '__booking_at \'login\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'logout\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'whoami\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'profiles\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'auth\' 0' -a 'status' -d 'list the profiles: name, base URL, masked key, and which one is active'
complete -c booking -n '__booking_at \'auth\' 0' -a 'help' -d 'display help for command'
complete -c booking -n '__booking_at \'auth\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'auth status\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'auth help\' 0' -x -a 'status' -d 'command'
complete -c booking -n '__booking_at \'bookings\' 0' -a 'list' -d 'list bookings, following cursors automatically'
complete -c booking -n '__booking_at \'bookings\' 0' -a 'get' -d 'show one booking by its uid'
complete -c booking -n '__booking_at \'bookings\' 0' -a 'help' -d 'display help for command'
complete -c booking -n '__booking_at \'bookings\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'bookings list\'' -s s -l status -x -a 'pending confirmed cancelled completed' -d 'only bookings with this status; another value the service knows is passed on'
complete -c booking -n '__booking_at \'bookings list\'' -s L -l limit -x -d 'print at most N bookings in total, across pages'
complete -c booking -n '__booking_at \'bookings list\'' -l page-size -x -d 'bookings per request (query limit); default min(--limit, 100)'
complete -c booking -n '__booking_at \'bookings list\'' -l cursor -x -d 'start at this cursor (or next-page URL)'
complete -c booking -n '__booking_at \'bookings list\'' -l no-paginate -d 'fetch one page only; the next cursor goes to stderr'
complete -c booking -n '__booking_at \'bookings list\'' -l cursor-path -x -d 'dot path of the next cursor in the body (overrides discovery)'
complete -c booking -n '__booking_at \'bookings list\'' -l items-path -x -d 'dot path of the items array in the body (overrides discovery)'
complete -c booking -n '__booking_at \'bookings list\'' -l cursor-param -x -d 'query parameter that carries the cursor (default: cursor, or the convention\'s)'
complete -c booking -n '__booking_at \'bookings list\'' -l cursor-from-last -x -d 'the next cursor is this field of the last item (Stripe style)'
complete -c booking -n '__booking_at \'bookings list\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'bookings get\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'bookings get\' 0' -x -d 'the booking\'s public uid'
complete -c booking -n '__booking_at \'bookings help\' 0' -x -a 'list get' -d 'command'
complete -c booking -n '__booking_at \'event-types\'' -s L -l limit -x -d 'print at most N event types'
complete -c booking -n '__booking_at \'event-types\'' -l no-paginate -d 'fetch one page only'
complete -c booking -n '__booking_at \'event-types\'' -l cursor-path -x -d 'dot path of the next cursor in the body'
complete -c booking -n '__booking_at \'event-types\'' -l items-path -x -d 'dot path of the items array in the body'
complete -c booking -n '__booking_at \'event-types\'' -l cursor-param -x -d 'query parameter that carries the cursor (default: cursor, or the convention\'s)'
complete -c booking -n '__booking_at \'event-types\'' -l cursor-from-last -x -d 'the next cursor is this field of the last item (Stripe style)'
complete -c booking -n '__booking_at \'event-types\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'api\'' -l paginate -d 'follow next pages and print all items (paging rules of bookings list)'
complete -c booking -n '__booking_at \'api\'' -s F -l field -x -d 'add a query parameter (repeatable)'
complete -c booking -n '__booking_at \'api\'' -s L -l limit -x -d 'with --paginate: print at most N items'
complete -c booking -n '__booking_at \'api\'' -l cursor -x -d 'with --paginate: start at this cursor or next-page URL (as a failure names it)'
complete -c booking -n '__booking_at \'api\'' -l cursor-path -x -d 'with --paginate: dot path of the next cursor in the body'
complete -c booking -n '__booking_at \'api\'' -l items-path -x -d 'with --paginate: dot path of the items array in the body'
complete -c booking -n '__booking_at \'api\'' -l cursor-param -x -d 'with --paginate: query parameter that carries the cursor (default: cursor, or the convention\'s)'
complete -c booking -n '__booking_at \'api\'' -l cursor-from-last -x -d 'with --paginate: the next cursor is this field of the last item (Stripe style)'
complete -c booking -n '__booking_at \'api\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'api\' 0' -x -d 'path under the base URL, e.g. /api/v1/me'
complete -c booking -n '__booking_at \'webhook\' 0' -a 'verify' -d 'check that a delivery is authentic: its body against --signature, or raw request captures'
complete -c booking -n '__booking_at \'webhook\' 0' -a 'sign' -d 'print the X-Service-Signature value (sha256=<hex>) for a raw body'
complete -c booking -n '__booking_at \'webhook\' 0' -a 'listen' -d 'receive deliveries locally: verify each POST, answer 200 or 401, print a line, save a capture, forward authentic ones'
complete -c booking -n '__booking_at \'webhook\' 0' -a 'send' -d 'POST a signed delivery to a URL (a built-in sample body per event, with a fresh id, unless --body or --request)'
complete -c booking -n '__booking_at \'webhook\' 0' -a 'help' -d 'display help for command'
complete -c booking -n '__booking_at \'webhook\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'webhook verify\'' -l signature -x -d 'the X-Service-Signature value: sha256=<64 hex> or bare 64 hex'
complete -c booking -n '__booking_at \'webhook verify\'' -l request -r -F -d 'raw HTTP request captures (as `webhook listen` saves them), HAR files (each signed POST entry), or folders of *.http and *.har (in name order; a repeated body is marked a duplicate)'
complete -c booking -n '__booking_at \'webhook verify\'' -l event -x -a 'booking.created booking.confirmed booking.rescheduled booking.cancelled booking.completed no_show.flagged' -d 'the event the delivery must be: one of another event is not accepted (exit 1, reason names both)'
complete -c booking -n '__booking_at \'webhook verify\'' -l secret -x -d 'the endpoint\'s signing secret (else --secret-file, BOOKING_WEBHOOK_SECRET, or a prompt); repeatable, for a rotation'
complete -c booking -n '__booking_at \'webhook verify\'' -l secret-file -r -F -d 'read signing secrets from a file, one a line, or stdin for "-" (empty lines are skipped); repeatable, for a rotation'
complete -c booking -n '__booking_at \'webhook verify\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'webhook verify\' 0' -r -F -d 'the raw body (stdin when "-" or absent)'
complete -c booking -n '__booking_at \'webhook sign\'' -l secret -x -d 'the endpoint\'s signing secret (else --secret-file, BOOKING_WEBHOOK_SECRET, or a prompt); repeatable, for a rotation'
complete -c booking -n '__booking_at \'webhook sign\'' -l secret-file -r -F -d 'read signing secrets from a file, one a line, or stdin for "-" (empty lines are skipped); repeatable, for a rotation'
complete -c booking -n '__booking_at \'webhook sign\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'webhook sign\' 0' -r -F -d 'the raw body (stdin when "-" or absent)'
complete -c booking -n '__booking_at \'webhook listen\'' -l port -x -d 'port to listen on (0 picks a free one)'
complete -c booking -n '__booking_at \'webhook listen\'' -l host -x -d 'address to listen on'
complete -c booking -n '__booking_at \'webhook listen\'' -l forward-to -x -d 'forward authentic deliveries, unchanged, to this URL'
complete -c booking -n '__booking_at \'webhook listen\'' -l save-dir -x -a '(__fish_complete_directories (commandline -ct))' -d 'where captures are saved'
complete -c booking -n '__booking_at \'webhook listen\'' -l no-save -d 'do not save captures'
complete -c booking -n '__booking_at \'webhook listen\'' -l max-saved -x -d 'stop saving when the save folder holds this much (500M, 2G); deliveries are still verified'
complete -c booking -n '__booking_at \'webhook listen\'' -l events -x -d 'show and forward only these events (comma-separated); others are answered 200 and counted'
complete -c booking -n '__booking_at \'webhook listen\'' -l secret -x -d 'the endpoint\'s signing secret (else --secret-file, BOOKING_WEBHOOK_SECRET, or a prompt); repeatable, for a rotation'
complete -c booking -n '__booking_at \'webhook listen\'' -l secret-file -r -F -d 'read signing secrets from a file, one a line, or stdin for "-" (empty lines are skipped); repeatable, for a rotation'
complete -c booking -n '__booking_at \'webhook listen\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'webhook send\'' -l event -x -a 'booking.created booking.confirmed booking.rescheduled booking.cancelled booking.completed no_show.flagged' -d 'the event: booking.created, booking.confirmed, booking.rescheduled, booking.cancelled, booking.completed, no_show.flagged'
complete -c booking -n '__booking_at \'webhook send\'' -l body -r -F -d 'the raw body to send ("-" for stdin)'
complete -c booking -n '__booking_at \'webhook send\'' -l set -x -d 'override a field of the JSON payload (repeatable): data.booking.status=cancelled; VALUE is JSON when it parses'
complete -c booking -n '__booking_at \'webhook send\'' -l request -r -F -d 'replay a saved capture\'s body and event (re-signed when a secret is given, else with its own signature)'
complete -c booking -n '__booking_at \'webhook send\'' -l secret -x -d 'the endpoint\'s signing secret (else --secret-file, BOOKING_WEBHOOK_SECRET, or a prompt); repeatable, for a rotation'
complete -c booking -n '__booking_at \'webhook send\'' -l secret-file -r -F -d 'read signing secrets from a file, one a line, or stdin for "-" (empty lines are skipped); repeatable, for a rotation'
complete -c booking -n '__booking_at \'webhook send\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'webhook send\' 0' -x -d 'the receiver, e.g. http://127.0.0.1:8787/webhooks'
complete -c booking -n '__booking_at \'webhook help\' 0' -x -a 'verify sign listen send' -d 'command'
complete -c booking -n '__booking_at \'sandbox\'' -l port -x -d 'port to listen on; 0 picks a free one'
complete -c booking -n '__booking_at \'sandbox\'' -l host -x -d 'address to listen on'
complete -c booking -n '__booking_at \'sandbox\'' -l api-key -x -d 'the bearer key the sandbox accepts'
complete -c booking -n '__booking_at \'sandbox\'' -l bookings -x -d 'how many bookings to start with'
complete -c booking -n '__booking_at \'sandbox\'' -l seed -x -d 'seed of the generated data (same seed, same data)'
complete -c booking -n '__booking_at \'sandbox\'' -l webhook-url -x -d 'send signed deliveries here (repeatable)'
complete -c booking -n '__booking_at \'sandbox\'' -l webhook-secret -x -d 'signing secret of the deliveries'
complete -c booking -n '__booking_at \'sandbox\'' -l tick -x -d 'seconds between lifecycle changes; 0 stops them'
complete -c booking -n '__booking_at \'sandbox\'' -l shape -x -a 'data-meta bare-link bookings-nextcursor items-links nested entries-metadata' -d 'response shape of lists and objects'
complete -c booking -n '__booking_at \'sandbox\'' -l latency -x -d 'add this delay to every response'
complete -c booking -n '__booking_at \'sandbox\'' -l fail-rate -x -d 'answer this share of requests with 503'
complete -c booking -n '__booking_at \'sandbox\'' -l rate-limit -x -d 'allow n requests per second; answer the rest 429 with Retry-After'
complete -c booking -n '__booking_at \'sandbox\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'config\' 0' -a 'path' -d 'print the path of the config file (it may not exist yet)'
complete -c booking -n '__booking_at \'config\' 0' -a 'list' -d 'the profile\'s settings, the key masked (key<TAB>value when piped; -o json for an object)'
complete -c booking -n '__booking_at \'config\' 0' -a 'get' -d 'print one setting as saved (the API key unmasked); nothing when it is not set'
complete -c booking -n '__booking_at \'config\' 0' -a 'set' -d 'save one setting to the profile'
complete -c booking -n '__booking_at \'config\' 0' -a 'unset' -d 'remove one setting from the profile'
complete -c booking -n '__booking_at \'config\' 0' -a 'help' -d 'display help for command'
complete -c booking -n '__booking_at \'config\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'config path\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'config list\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'config get\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'config get\' 0' -x -a 'baseUrl apiKey cursorPath itemsPath cursorParam cursorFromLast' -d 'baseUrl, apiKey, cursorPath, itemsPath, cursorParam or cursorFromLast (base-url, api_key… also work)'
complete -c booking -n '__booking_at \'config set\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'config set\' 0' -x -a 'baseUrl apiKey cursorPath itemsPath cursorParam cursorFromLast' -d 'baseUrl, apiKey, cursorPath, itemsPath, cursorParam or cursorFromLast (base-url, api_key… also work)'
complete -c booking -n '__booking_at \'config set\' 1' -x -d 'the value; baseUrl must be an http(s) URL'
complete -c booking -n '__booking_at \'config unset\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'config unset\' 0' -x -a 'baseUrl apiKey cursorPath itemsPath cursorParam cursorFromLast' -d 'baseUrl, apiKey, cursorPath, itemsPath, cursorParam or cursorFromLast (base-url, api_key… also work)'
complete -c booking -n '__booking_at \'config help\' 0' -x -a 'path list get set unset' -d 'command'
complete -c booking -n '__booking_at \'completion\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'completion\' 0' -x -a 'bash zsh fish' -d 'bash, zsh or fish'
complete -c booking -n '__booking_at \'help\'' -s h -l help -d 'show help'
complete -c booking -n '__booking_at \'help\' 0+' -x -a 'login logout whoami profiles auth bookings event-types api webhook sandbox config completion help' -d 'the command and subcommand'
