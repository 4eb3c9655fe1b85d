// docsvc as a Jenkins shared-library step (rendered by `docsvc ci init jenkins`).
//
//   docsvc(operation: 'sync', integrationId: 12, credentialsId: 'docsvc-api-key')
//
// Every argument travels as an environment variable, never inside the shell command, so hostile
// input (a pull-request title, say) stays data. The key comes from a Jenkins "secret text"
// credential through withCredentials and is never echoed.
//
// The toolkit installed is this library's own version: this file was rendered by docsvc
// 1.2.0, so it installs tag v1.2.0 of docsvc's repository (source:, a mirror of it; or
// package:, e.g. 'docsvc-cli==1.2.0' from your index), into a venv under the
// workspace's @tmp folder that later calls in the build reuse. See vars/docsvc.txt. Its
// dependencies are installed at the pinned versions the GitHub Action and the GitLab job use.

import groovy.transform.Field

@Field static final String DOCSVC_VERSION = '1.2.0'
@Field static final String DOCSVC_SOURCE = 'https://github.com/docsvc/docsvc-action.git'
// pip constraints: docsvc 1.2.0's dependencies, pinned (docsvc/ci/requirements.txt).
@Field static final String DOCSVC_CONSTRAINTS = '''annotated-types==0.8.0
anyio==4.16.0
certifi==2026.10.19.post1
click==8.5.1
colorama==0.4.6; platform_system == "Windows"
h11==0.16.0
httpcore==1.0.9
httpx==0.28.1
idna==3.20
Jinja2==3.1.6
MarkupSafe==3.0.4
platformdirs==4.14.8
pydantic==2.14.4
pydantic_core==2.50.5
PyYAML==6.0.4
typing-inspection==0.4.5
typing_extensions==4.16.0
'''

@Field static final Map<String, String> DOCSVC_ARGUMENTS = [
    baseUrl: 'DOCSVC_BASE_URL',
    ciProvider: 'DOCSVC_CI_PROVIDER',
    timeout: 'DOCSVC_TIMEOUT',
    timeoutOk: 'DOCSVC_TIMEOUT_OK',
    dryRun: 'DOCSVC_DRY_RUN',
    summaryFile: 'DOCSVC_SUMMARY_FILE',
    dotenvFile: 'DOCSVC_DOTENV_FILE',
    resultFile: 'DOCSVC_RESULT_FILE',
    integrationId: 'DOCSVC_INTEGRATION_ID',
    prNumber: 'DOCSVC_PR_NUMBER',
    prTitle: 'DOCSVC_PR_TITLE',
    prBody: 'DOCSVC_PR_BODY',
    prAuthor: 'DOCSVC_PR_AUTHOR',
    prBranch: 'DOCSVC_PR_BRANCH',
    prSha: 'DOCSVC_PR_SHA',
    screenshots: 'DOCSVC_SCREENSHOTS',
    screenshotsDir: 'DOCSVC_SCREENSHOTS_DIR',
    screenshotsMap: 'DOCSVC_SCREENSHOTS_MAP',
    maxScreenshotMb: 'DOCSVC_MAX_SCREENSHOT_MB',
    inputFile: 'DOCSVC_INPUT_FILE',
    sourceType: 'DOCSVC_SOURCE_TYPE',
    target: 'DOCSVC_TARGET',
    output: 'DOCSVC_OUTPUT',
    scanId: 'DOCSVC_SCAN_ID',
    to: 'DOCSVC_TO',
    repo: 'DOCSVC_REPO',
    path: 'DOCSVC_PATH',
    sourcePath: 'DOCSVC_SOURCE_PATH',
    spec: 'DOCSVC_SPEC',
    commitMessage: 'DOCSVC_COMMIT_MESSAGE',
    file: 'DOCSVC_FILE',
    runSwagger: 'DOCSVC_RUN_SWAGGER',
    runRedocly: 'DOCSVC_RUN_REDOCLY',
    runAiFix: 'DOCSVC_RUN_AI_FIX',
    runAiContent: 'DOCSVC_RUN_AI_CONTENT',
    failOn: 'DOCSVC_FAIL_ON',
    junitFile: 'DOCSVC_JUNIT_FILE',
    sarifFile: 'DOCSVC_SARIF_FILE',
    codequalityFile: 'DOCSVC_CODEQUALITY_FILE',
    ids: 'DOCSVC_IDS',
    dismissDone: 'DOCSVC_DISMISS_DONE',
    noAi: 'DOCSVC_NO_AI',
]

def call(Map args = [:]) {
    String operation = args.operation
    if (!operation) {
        error('docsvc: operation is required (one of sync, docflow, convert, api-scan-pr, validate, check)')
    }
    String credentialsId = args.credentialsId ?: 'docsvc-api-key'
    String pkg = args.package ?: "git+${args.source ?: DOCSVC_SOURCE}@v${DOCSVC_VERSION}"
    // One venv per package spec and pins: a second call in the build finds it ready.
    String temp = env.WORKSPACE_TMP ?: (env.WORKSPACE ? "${env.WORKSPACE}@tmp" : '.docsvc-tmp')
    String venv = "${temp}/docsvc-venv-${Integer.toHexString((pkg + DOCSVC_CONSTRAINTS).hashCode())}"
    String constraints = "${venv}/docsvc-constraints.txt"  // python -m venv keeps what is in its folder
    List<String> environment = ["DOCSVC_OPERATION=${operation}", "DOCSVC_PACKAGE=${pkg}", "DOCSVC_VENV=${venv}",
                                "DOCSVC_CONSTRAINTS_FILE=${constraints}"]
    args.each { key, value ->
        if (key in ['operation', 'credentialsId', 'package', 'source']) {
            return
        }
        String variable = DOCSVC_ARGUMENTS[key]
        if (!variable) {
            error("docsvc: unknown argument '${key}'")
        }
        if (value == null) {
            return  // unset (prTitle: env.UNSET): no variable, never the text "null"
        }
        // A list (to: ['docs', 'source']) as the step's list inputs take it: comma-separated.
        String text = (value instanceof Collection || value instanceof Object[]) ? value.join(',') : value.toString()
        environment << "${variable}=${text}"
    }
    if (env.CHANGE_ID && !args.containsKey('prBody')) {
        // Jenkins has no variable for a pull request's description; the SCM may know it.
        String body = pullRequestBody()
        if (body) {
            environment << "DOCSVC_PR_BODY=${body}"
        }
    }
    writeFile(file: constraints, text: DOCSVC_CONSTRAINTS)
    withEnv(environment) {
        if (isUnix()) {
            sh(label: 'install docsvc', script: '[ -f "$DOCSVC_VENV/.docsvc-ready" ] || { python3 -m venv "$DOCSVC_VENV" && "$DOCSVC_VENV/bin/python" -m pip install --quiet --disable-pip-version-check --constraint "$DOCSVC_CONSTRAINTS_FILE" "$DOCSVC_PACKAGE" && touch "$DOCSVC_VENV/.docsvc-ready"; }')
        } else {
            bat(label: 'install docsvc', script: 'if not exist "%DOCSVC_VENV%\\.docsvc-ready" ( python -m venv "%DOCSVC_VENV%" && "%DOCSVC_VENV%\\Scripts\\python" -m pip install --quiet --disable-pip-version-check --constraint "%DOCSVC_CONSTRAINTS_FILE%" "%DOCSVC_PACKAGE%" && type nul > "%DOCSVC_VENV%\\.docsvc-ready" )')
        }
    }
    // The key exists only while docsvc runs.
    withCredentials([string(credentialsId: credentialsId, variable: 'DOCSVC_API_KEY')]) {
        withEnv(environment) {
            if (isUnix()) {
                sh(label: "docsvc ${operation}", script: '"$DOCSVC_VENV/bin/python" -m docsvc.ci "$DOCSVC_OPERATION"')
            } else {
                bat(label: "docsvc ${operation}", script: '"%DOCSVC_VENV%\\Scripts\\python" -m docsvc.ci "%DOCSVC_OPERATION%"')
            }
        }
    }
}

// The description of the pull request being built, from the pipeline-github plugin's
// `pullRequest` when the pipeline has it; null otherwise (the body is then empty, which is allowed).
String pullRequestBody() {
    try {
        return pullRequest?.body
    } catch (MissingPropertyException ignored) {
        return null
    }
}
