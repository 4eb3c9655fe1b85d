// docsvc as a Jenkins shared-library step (rendered by `docsvc ci init jenkins`).
//
//   docsvc(operation: 'sync', integrationId: 12, credentialsId: 'docsvc-api-key')
//
// Every argument travels as an environment variable, never inside the shell command, so hostile
// input (a pull-request title, say) stays data. The key comes from a Jenkins "secret text"
// credential through withCredentials and is never echoed.

import groovy.transform.Field

@Field static final Map<String, String> DOCSVC_ARGUMENTS = [
    baseUrl: 'DOCSVC_BASE_URL',
    ciProvider: 'DOCSVC_CI_PROVIDER',
    timeout: 'DOCSVC_TIMEOUT',
    timeoutOk: 'DOCSVC_TIMEOUT_OK',
    dryRun: 'DOCSVC_DRY_RUN',
    summaryFile: 'DOCSVC_SUMMARY_FILE',
    dotenvFile: 'DOCSVC_DOTENV_FILE',
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
    runSwagger: 'DOCSVC_RUN_SWAGGER',
    runRedocly: 'DOCSVC_RUN_REDOCLY',
    runAiFix: 'DOCSVC_RUN_AI_FIX',
    runAiContent: 'DOCSVC_RUN_AI_CONTENT',
    failOn: 'DOCSVC_FAIL_ON',
    junitFile: 'DOCSVC_JUNIT_FILE',
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
    List<String> environment = ["DOCSVC_OPERATION=${operation}"]
    if (args.package) {
        environment << "DOCSVC_PACKAGE=${args.package}"
    }
    args.each { key, value ->
        if (key in ['operation', 'credentialsId', 'package']) {
            return
        }
        String variable = DOCSVC_ARGUMENTS[key]
        if (!variable) {
            error("docsvc: unknown argument '${key}'")
        }
        environment << "${variable}=${value}"
    }
    withCredentials([string(credentialsId: credentialsId, variable: 'DOCSVC_API_KEY')]) {
        withEnv(environment) {
            if (isUnix()) {
                if (args.package) {
                    sh(label: 'install docsvc', script: 'python3 -m pip install --quiet "$DOCSVC_PACKAGE"')
                }
                sh(label: "docsvc ${operation}", script: 'python3 -m docsvc.ci "$DOCSVC_OPERATION"')
            } else {
                if (args.package) {
                    bat(label: 'install docsvc', script: 'python -m pip install --quiet "%DOCSVC_PACKAGE%"')
                }
                bat(label: "docsvc ${operation}", script: 'python -m docsvc.ci "%DOCSVC_OPERATION%"')
            }
        }
    }
}
