public class JsonPrinterBench { public static void main(String[] a) {} }
