package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.service.AiServiceContext;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.DefaultToolExecutor;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.resilienceharness.loop.LoopRun;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@link HarnessLangChain4j}'s tool methods do. Apart from it, so that a team with langchain4j-open-ai alone,
 * without langchain4j's AiServices module, can still load {@code HarnessLangChain4j}.
 */
final class GatedTools {

    private GatedTools() {
    }

    static <T> AiServices<T> aiServices(LoopRun run, Class<T> aiService) {
        AiServiceContext context = AiServiceContext.create(aiService);
        context.toolService = new RunToolService(run);
        return AiServices.builder(context);
    }

    static Map<ToolSpecification, ToolExecutor> tools(LoopRun run, Object... toolObjects) {
        Map<ToolSpecification, ToolExecutor> tools = new LinkedHashMap<>();
        for (Object object : toolObjects) {
            // By name: the JVM lists declared methods in no promised order, and the request lists the tools in this.
            Method[] methods = object.getClass().getDeclaredMethods();
            Arrays.sort(methods, Comparator.comparing(Method::getName));
            for (Method method : methods) {
                if (method.isAnnotationPresent(Tool.class)) {
                    tools.put(ToolSpecifications.toolSpecificationFrom(method),
                            executor(run, new DefaultToolExecutor(object, method), false));
                }
            }
        }
        return tools;
    }

    static ToolExecutor executor(LoopRun run, ToolExecutor executor, boolean throwsFailures) {
        return executor instanceof RunToolExecutor ? executor : new RunToolExecutor(run, executor, throwsFailures);
    }
}
